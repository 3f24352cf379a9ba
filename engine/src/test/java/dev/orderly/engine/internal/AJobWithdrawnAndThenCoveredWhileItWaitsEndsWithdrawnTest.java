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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The sibling of {@link AJobWithdrawnAndThenCoveredBeforeItsTurnEndsWithdrawnTest}: a job withdrawn while it waits
 * for its turn (its worker given up to the re-run of the client's segment) whose unit is then covered before its
 * thread wakes is woken by the interrupt, not by its turn. It must end WITHDRAWN all the same: the withdrawal came
 * first (a cancelled job can not be withdrawn), and under an engine-wide cap its permit was promised to the re-run
 * ({@code Scheduler.jobWithdrawn} keeps it). Named ABANDONED, {@code Scheduler.jobEnded} released the permit to the
 * cap, where another request with fewer permits took it, and the client's re-run waited for a permit until another
 * job of the request ended. The same holds when both come just after its last check, so that its dial is refused by
 * its handle ({@code dialing(true)}). Driven on the test thread, which is the job's thread.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AJobWithdrawnAndThenCoveredWhileItWaitsEndsWithdrawnTest {

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
    void aJobWithdrawnAndThenCoveredIsWokenByTheInterruptAndEndsWithdrawn() throws Exception {
        DelayGate delays = new DelayGate(CONFIG);
        DialGate gate = new DialGate() {
            @Override
            public void awaitTurn(JobKey key) throws InterruptedException {
                // While it waits: the client's re-run takes its worker, then stage 1 of its segment gets done. Both
                // interrupt it; the wait (DelayGate's) then throws, as any interruptible wait does.
                assertTrue(running.withdraw(UNIT), "the waiting job could not be withdrawn");
                running.cancelCoveredBy(new JobKey(UNIT.segment(), 1));
                delays.awaitTurn(key);
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
        JobRunner runner = new JobRunner("r-withdrawn-covered-woken", 0, tier2, gate, CONFIG, new RequestCounters(),
                RequestListener.NONE, key -> true, new StallWatch("r-withdrawn-covered-woken", Duration.ofSeconds(30)),
                () -> 3);

        JobHandle handle = running.start(UNIT);
        JobRunner.Outcome outcome;
        try {
            outcome = runner.run(UNIT, new UnitCounts.Tally(UnitCounts.NONE), handle);
        } finally {
            running.end(handle);
        }

        assertTrue(handle.withdrawn() && handle.cancelled(), "the job was withdrawn, then covered");
        assertEquals(JobRunner.Outcome.WITHDRAWN, outcome, "the outcome of a job withdrawn, then covered, woken by"
                + " the interrupt (ABANDONED gives the re-run's permit back to the cap)");
        assertEquals(0, dials.get(), "dials");
    }

    @Test
    void aJobWithdrawnAndThenCoveredJustAfterItsLastCheckIsRefusedItsDialAndEndsWithdrawn() throws Exception {
        DialGate gate = new DelayGate(CONFIG);
        Tier2Client tier2 = job -> {
            dials.incrementAndGet();
            return (Tier2Call) () -> { };
        };
        AtomicBoolean first = new AtomicBoolean(true);
        // The check before its dial says "needed"; right after it, the re-run takes its worker and stage 1 of its
        // segment gets done, so dialing(true) refuses the dial.
        JobRunner runner = new JobRunner("r-withdrawn-covered-refused", 0, tier2, gate, CONFIG,
                new RequestCounters(), RequestListener.NONE, key -> {
                    if (first.getAndSet(false)) {
                        assertTrue(running.withdraw(UNIT), "the waiting job could not be withdrawn");
                        running.cancelCoveredBy(new JobKey(UNIT.segment(), 1));
                    }
                    return true;
                }, new StallWatch("r-withdrawn-covered-refused", Duration.ofSeconds(30)), () -> 3);

        JobHandle handle = running.start(UNIT);
        JobRunner.Outcome outcome;
        try {
            outcome = runner.run(UNIT, new UnitCounts.Tally(UnitCounts.NONE), handle);
        } finally {
            running.end(handle);
        }

        assertTrue(handle.withdrawn() && handle.cancelled(), "the job was withdrawn, then covered");
        assertEquals(JobRunner.Outcome.WITHDRAWN, outcome, "the outcome of a job withdrawn, then covered, whose dial"
                + " its handle refused (ABANDONED gives the re-run's permit back to the cap)");
        assertEquals(0, dials.get(), "dials");
    }
}
