package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job withdrawn while it dials (its worker given up to the re-run of the client's segment; a dialing job is not
 * interrupted for it) whose unit is then covered, and whose dial then ends with an error, ends WITHDRAWN, not
 * ABANDONED: the withdrawal came first, and under an engine-wide cap its permit was promised to the re-run
 * ({@code Scheduler.jobWithdrawn} keeps it; named ABANDONED, {@code Scheduler.jobEnded} gives it back to the cap).
 * {@code retryOrFail} asked "still needed" before "withdrawn", so this path alone ended ABANDONED. Both kinds of
 * error: one that says nothing ran (REFUSED) and one that says the job ran (RETRYABLE). Driven on the test thread,
 * which is the job's thread, as in {@code AJobWithdrawnAndThenCoveredWhileItWaitsEndsWithdrawnTest}.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AJobWithdrawnAndThenCoveredWhileItDialsEndsWithdrawnTest {

    private static final JobKey UNIT = new JobKey(3, 0);
    private static final EngineConfig CONFIG = EngineConfig.builder().refusedDelay(Duration.ofMillis(2))
            .failureDelay(Duration.ofMillis(20)).build();

    private final RunningJobs running = new RunningJobs(16, 4);
    private final AtomicBoolean covered = new AtomicBoolean();
    private final AtomicInteger dials = new AtomicInteger();

    @AfterEach
    void clearInterrupt() {
        assertFalse(Thread.interrupted(), "the job left an interrupt on its thread");
    }

    @Test
    void aJobWithdrawnAndThenCoveredWhileItDialsAndThenRefusedEndsWithdrawn() throws Exception {
        assertEquals(JobRunner.Outcome.WITHDRAWN, run(Tier2Exception.refused("full")),
                "the outcome of a job withdrawn, then covered, while it dialed, then refused (ABANDONED gives the"
                        + " re-run's permit back to the cap)");
    }

    @Test
    void aJobWithdrawnAndThenCoveredWhileItDialsAndThenFailedEndsWithdrawn() throws Exception {
        assertEquals(JobRunner.Outcome.WITHDRAWN, run(Tier2Exception.retryable("broke", null)),
                "the outcome of a job withdrawn, then covered, while it dialed, then failed (ABANDONED gives the"
                        + " re-run's permit back to the cap)");
    }

    private JobRunner.Outcome run(Tier2Exception answer) throws Exception {
        Tier2Client tier2 = job -> {
            dials.incrementAndGet();
            // While it dials: the client's re-run takes its worker, then stage 1 of its segment gets done.
            assertTrue(running.withdraw(UNIT), "the dialing job could not be withdrawn");
            covered.set(true);
            running.cancelCoveredBy(new JobKey(UNIT.segment(), 1));
            throw answer;
        };
        JobRunner runner = new JobRunner("r-withdrawn-covered-dialing", 0, tier2, new DelayGate(CONFIG), CONFIG,
                new RequestCounters(), RequestListener.NONE, key -> !covered.get(),
                new StallWatch("r-withdrawn-covered-dialing", Duration.ofSeconds(30)), () -> 3);
        JobHandle handle = running.start(UNIT);
        try {
            JobRunner.Outcome outcome = runner.run(UNIT, new UnitCounts.Tally(UnitCounts.NONE), handle);
            assertTrue(handle.withdrawn() && handle.cancelled(), "the job was withdrawn, then covered");
            assertEquals(1, dials.get(), "dials");
            return outcome;
        } finally {
            running.end(handle);
        }
    }
}
