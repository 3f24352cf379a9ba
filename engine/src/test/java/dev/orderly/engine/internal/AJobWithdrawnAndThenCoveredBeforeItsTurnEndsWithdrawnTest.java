package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.DialGate;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job withdrawn while it waits for its turn (its worker given up to the re-run of the client's segment), whose unit
 * is then covered before its turn comes, ends WITHDRAWN at the check before its dial ({@code stopBeforeDial}), not
 * ABANDONED: the withdrawal came first, and its worker (and, under an engine-wide cap, its permit, which
 * {@code Scheduler.jobWithdrawn} keeps for the re-run) was promised to the re-run. It never dials. Driven on the test
 * thread, which is the job's thread, as in {@code JobRunnerHandleTest}. Kills round 62's surviving
 * {@code stopBeforeDial} returning null for a withdrawn job (the job then went on to {@code dialing(true)}, which
 * refused it, and was named ABANDONED since it was cancelled too).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AJobWithdrawnAndThenCoveredBeforeItsTurnEndsWithdrawnTest {

    private static final JobKey UNIT = new JobKey(3, 0);
    private static final EngineConfig CONFIG = EngineConfig.builder().refusedDelay(Duration.ofMillis(2))
            .failureDelay(Duration.ofMillis(20)).build();

    private final RunningJobs running = new RunningJobs(16, 4);
    private final AtomicInteger dials = new AtomicInteger();

    @AfterEach
    void clearInterrupt() {
        assertFalse(Thread.interrupted(), "the job left an interrupt on its thread");
    }

    @Test
    void aJobWithdrawnAndThenCoveredWhileItWaitsForItsTurnIsWithdrawnWithoutDialing() throws Exception {
        DelayGate delays = new DelayGate(CONFIG);
        DialGate gate = new DialGate() {
            private boolean first = true;

            @Override
            public void awaitTurn(JobKey key) throws InterruptedException {
                delays.awaitTurn(key);
                if (first) {
                    first = false;
                    // While it waited: the client's re-run took its worker, then stage 1 of its segment got done.
                    assertTrue(running.withdraw(UNIT), "the waiting job could not be withdrawn");
                    running.cancelCoveredBy(new JobKey(UNIT.segment(), 1));
                }
            }

            @Override
            public void refused(JobKey key) {
                delays.refused(key);
            }

            @Override
            public void failed(JobKey key) {
                delays.failed(key);
            }

            @Override
            public void leave(JobKey key) {
                delays.leave(key);
            }
        };
        Tier2Client tier2 = job -> {
            dials.incrementAndGet();
            return (Tier2Call) () -> { };
        };
        JobRunner runner = new JobRunner("r-withdrawn-covered", 0, tier2, gate, CONFIG, new RequestCounters(),
                RequestListener.NONE, key -> true, new StallWatch("r-withdrawn-covered", Duration.ofSeconds(30)),
                () -> 3);

        JobHandle handle = running.start(UNIT);
        JobRunner.Outcome outcome;
        try {
            outcome = runner.run(UNIT, new UnitCounts.Tally(UnitCounts.NONE), handle);
        } finally {
            running.end(handle);
        }

        assertTrue(handle.withdrawn() && handle.cancelled(), "the job was withdrawn, then covered");
        assertEquals(JobRunner.Outcome.WITHDRAWN, outcome);
        assertEquals(0, dials.get(), "dials");
    }
}
