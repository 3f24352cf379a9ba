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
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job withdrawn while it waits for its turn (its worker given up to the re-run of the client's segment) whose unit
 * is then covered ends WITHDRAWN, not ABANDONED, on every path: the withdrawal came first (a cancelled job can not be
 * withdrawn), and under an engine-wide cap its permit was promised to the re-run ({@code Scheduler.jobWithdrawn} keeps
 * it). Named ABANDONED, {@code Scheduler.jobEnded} released the permit to the cap, where another request with fewer
 * permits took it, and the client's re-run waited for a permit until another job of the request ended. The paths: its
 * turn came, and the check before its dial ({@code stopBeforeDial}) sees both (had it not, the job would have gone on
 * to the third path); both came before its thread woke, so the interrupt wakes it, not its turn; both came just after
 * its last check, so that its handle refuses its dial ({@code dialing(true)}). It never dials. Driven on the test thread, which is the job's thread, as
 * in {@code JobRunnerHandleTest}.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AJobWithdrawnAndThenCoveredWhileItWaitsEndsWithdrawnTest {

    private static final JobKey UNIT = new JobKey(3, 0);
    private static final EngineConfig CONFIG = EngineConfig.builder().refusedDelay(Duration.ofMillis(2))
            .failureDelay(Duration.ofMillis(20)).build();

    private final RunningJobs running = new RunningJobs(16, 4);
    private final AtomicInteger dials = new AtomicInteger();
    private final Tier2Client tier2 = job -> {
        dials.incrementAndGet();
        return (Tier2Call) () -> { };
    };

    @AfterEach
    void clearInterrupt() {
        assertFalse(Thread.interrupted(), "the job left an interrupt on its thread");
    }

    @Test
    void aJobWithdrawnAndThenCoveredWhileItWaitsForItsTurnIsWithdrawnWithoutDialing() throws Exception {
        assertWithdrawnWithoutDialing(run("r-withdrawn-covered", withdrawnAndCoveredAroundItsFirstWait(false),
                key -> true), "the outcome of a job withdrawn, then covered, whose turn came");
    }

    @Test
    void aJobWithdrawnAndThenCoveredIsWokenByTheInterruptAndEndsWithdrawn() throws Exception {
        // Both interrupt it before its wait; the wait (DelayGate's) then throws, as any interruptible wait does.
        assertWithdrawnWithoutDialing(run("r-withdrawn-covered-woken", withdrawnAndCoveredAroundItsFirstWait(true),
                key -> true), "the outcome of a job withdrawn, then covered, woken by the interrupt (ABANDONED gives"
                        + " the re-run's permit back to the cap)");
    }

    @Test
    void aJobWithdrawnAndThenCoveredJustAfterItsLastCheckIsRefusedItsDialAndEndsWithdrawn() throws Exception {
        AtomicBoolean first = new AtomicBoolean(true);
        // The check before its dial says "needed"; right after it, the re-run takes its worker and stage 1 of its
        // segment gets done, so dialing(true) refuses the dial.
        assertWithdrawnWithoutDialing(run("r-withdrawn-covered-refused", new DelayGate(CONFIG), key -> {
            if (first.getAndSet(false)) {
                withdrawAndCover();
            }
            return true;
        }), "the outcome of a job withdrawn, then covered, whose dial its handle refused (ABANDONED gives the"
                + " re-run's permit back to the cap)");
    }

    /** The client's re-run takes the job's worker, then stage 1 of its segment gets done. */
    private void withdrawAndCover() {
        assertTrue(running.withdraw(UNIT), "the waiting job could not be withdrawn");
        running.cancelCoveredBy(new JobKey(UNIT.segment(), 1));
    }

    /** A {@link DelayGate} whose first {@code awaitTurn} withdraws and covers the job before its wait, or after it. */
    private DialGate withdrawnAndCoveredAroundItsFirstWait(boolean beforeTheWait) {
        Consumer<JobKey> withdrawAndCover = key -> withdrawAndCover();
        Consumer<JobKey> nothing = key -> { };
        return beforeTheWait ? new FirstTurnHookedDelayGate(CONFIG, withdrawAndCover, nothing)
                : new FirstTurnHookedDelayGate(CONFIG, nothing, withdrawAndCover);
    }

    private JobRunner.Outcome run(String requestId, DialGate gate, Predicate<JobKey> needed) throws Exception {
        JobRunner runner = new JobRunner(requestId, 0, tier2, gate, CONFIG, new RequestCounters(), RequestListener.NONE,
                needed, new StallWatch(requestId, Duration.ofSeconds(30)), () -> 3);
        JobHandle handle = running.start(UNIT);
        try {
            JobRunner.Outcome outcome = runner.run(UNIT, new UnitCounts.Tally(UnitCounts.NONE), handle);
            assertTrue(handle.withdrawn() && handle.cancelled(), "the job was withdrawn, then covered");
            return outcome;
        } finally {
            running.end(handle);
        }
    }

    private void assertWithdrawnWithoutDialing(JobRunner.Outcome outcome, String what) {
        assertEquals(JobRunner.Outcome.WITHDRAWN, outcome, what);
        assertEquals(0, dials.get(), "dials");
    }
}
