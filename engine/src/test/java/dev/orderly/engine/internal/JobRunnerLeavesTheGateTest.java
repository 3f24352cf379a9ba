package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.LaunchQueue;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * However a job ends, it holds nothing in its request's launch queue afterwards: no dial slot, no place. A done job
 * left when the tier2 took it; every other way out leaves on the way out.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class JobRunnerLeavesTheGateTest {

    private static final JobKey UNIT = new JobKey(3, 0);
    private static final EngineConfig CONFIG = EngineConfig.builder().refusedDelay(Duration.ofMillis(1))
            .failureDelay(Duration.ofMillis(1)).maxFailures(2).build();
    // Tier2Call's one abstract method is await: a call that has finished by the time it is awaited.
    private static final Tier2Call FINISHES_AT_ONCE = () -> { };

    private final LaunchQueue queue = new LaunchQueue(10, CONFIG);

    private JobRunner.Outcome run(Tier2Client tier2, Predicate<JobKey> needed) throws Exception {
        JobRunner runner = new JobRunner("r-gate", 0, tier2, queue, CONFIG, new RequestCounters(), RequestListener.NONE,
                needed, new StallWatch("r-gate", Duration.ofSeconds(30)), () -> 3);
        RunningJobs running = new RunningJobs(16, 4);
        JobHandle handle = running.start(UNIT);
        try {
            return runner.run(UNIT, new UnitCounts.Tally(UnitCounts.NONE), handle);
        } finally {
            running.end(handle);
        }
    }

    private void assertHoldsNothing() {
        LaunchQueue.Stats stats = queue.stats();
        assertEquals(0, stats.queued(), stats.toString());
        assertEquals(0, stats.dialing(), stats.toString());
    }

    @Test
    void aDoneJobHoldsNothing() throws Exception {
        assertEquals(JobRunner.Outcome.DONE, run(job -> FINISHES_AT_ONCE, key -> true));
        assertHoldsNothing();
    }

    @Test
    void aJobNoLongerNeededWhenItsTurnCameGivesItsSlotBack() throws Exception {
        assertEquals(JobRunner.Outcome.ABANDONED, run(job -> FINISHES_AT_ONCE, key -> false));
        assertHoldsNothing();
    }

    @Test
    void aJobRefusedUntilItIsNoLongerNeededLeavesItsPlace() throws Exception {
        AtomicInteger dials = new AtomicInteger();
        Tier2Client refusesTwice = job -> {
            if (dials.incrementAndGet() <= 2) {
                throw Tier2Exception.refused("full");
            }
            return FINISHES_AT_ONCE;
        };
        assertEquals(JobRunner.Outcome.ABANDONED, run(refusesTwice, key -> dials.get() < 2));
        assertHoldsNothing();
    }

    @Test
    void aJobThatFailsTheRequestLeavesToo() {
        Tier2Client fails = job -> {
            throw Tier2Exception.retryable("broken", null);
        };
        assertThrows(RequestFailedException.class,
                () -> run(fails, key -> true));
        assertHoldsNothing();
    }
}
