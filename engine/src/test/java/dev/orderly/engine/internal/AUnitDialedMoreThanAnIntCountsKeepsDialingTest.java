package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.LaunchQueue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found: a unit's dials are counted in an int, which numbers {@code Job.attempt}. A unit refused for long enough (an
 * unreachable fleet and a refusedDelay of 0: about 2^31 dials) overflowed it, and the next dial's {@code Job} threw
 * "attempt must be >= 1, was -2147483648", failing the request naming no unit. The count now stops at
 * {@code Integer.MAX_VALUE}, and the unit dials on.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AUnitDialedMoreThanAnIntCountsKeepsDialingTest {

    private static final JobKey UNIT = new JobKey(3, 0);
    private static final EngineConfig CONFIG = EngineConfig.builder().refusedDelay(Duration.ZERO).build();

    @Test
    void theAttemptStopsAtIntegerMaxValueAndTheUnitDialsOn() throws Exception {
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        Tier2Client refusesTwice = job -> {
            attempts.add(job.attempt());
            if (attempts.size() <= 2) {
                throw Tier2Exception.unreachable("connection refused");
            }
            return () -> { };
        };
        JobRunner runner = new JobRunner("r-many", 0, refusesTwice, new LaunchQueue(4, CONFIG), CONFIG,
                new RequestCounters(), RequestListener.NONE, key -> true,
                new StallWatch("r-many", Duration.ofSeconds(30)), () -> 3);
        RunningJobs running = new RunningJobs(16, 4);
        JobHandle handle = running.start(UNIT);
        UnitCounts.Tally tally = new UnitCounts.Tally(new UnitCounts(Integer.MAX_VALUE - 1, 0, 0));
        try {
            assertEquals(JobRunner.Outcome.DONE, runner.run(UNIT, tally, handle));
        } finally {
            running.end(handle);
        }
        assertEquals(List.of(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE), attempts);
        assertEquals(Integer.MAX_VALUE, tally.dials);
    }
}
