package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The running jobs of a request, driven from the test's own thread: who is interrupted, and when not. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RunningJobsTest {

    private static final JobKey COVERED = new JobKey(3, 0);

    @AfterEach
    void clearTheInterrupt() {
        Thread.interrupted();
    }

    @Test
    void aCoveredJobWithNoCallIsInterrupted() {
        RunningJobs running = new RunningJobs(16, 4);
        JobHandle handle = running.start(COVERED);
        running.cancelCoveredBy(new JobKey(3, 1));
        assertTrue(Thread.interrupted(), "the covered job's thread was interrupted");
        assertTrue(handle.cancelled());
        assertFalse(handle.attach(() -> { }), "a call that comes after the cancellation is not taken");
    }

    @Test
    void aJobThatHasEndedIsNeverInterrupted() {
        RunningJobs running = new RunningJobs(16, 4);
        JobHandle handle = running.start(COVERED);
        running.end(handle);

        handle.cancel(); // as a cancelCoveredBy that found the handle just before the job ended
        assertFalse(Thread.currentThread().isInterrupted(), "the thread has moved on: no interrupt may reach it");
        assertFalse(handle.cancelled());
    }

    @Test
    void aUnitHasOneRunningJobAtATime() {
        RunningJobs running = new RunningJobs(16, 4);
        JobHandle first = running.start(COVERED);
        assertThrows(IllegalStateException.class, () -> running.start(COVERED));
        running.end(first);
        running.end(running.start(COVERED));
    }

    @Test
    void jobsWhoseUnitsShareASlotAreEachFoundCancelledAndEnded() {
        // A window of one segment: segment 4's units take the slots segment 3's still hold, as a covered lower stage
        // still alive after its segment was delivered would.
        RunningJobs running = new RunningJobs(1, 2);
        JobHandle lingering = running.start(COVERED);
        JobHandle next = running.start(new JobKey(4, 0));
        running.cancelCoveredBy(new JobKey(4, 1));
        assertTrue(Thread.interrupted(), "the job of (4, 0) was interrupted");
        assertTrue(next.cancelled());
        assertFalse(lingering.cancelled(), "the job in the slot is another unit's");
        running.end(next);
        assertThrows(IllegalStateException.class, () -> running.start(COVERED));
        running.end(lingering);
        running.end(running.start(new JobKey(4, 0)));
    }

    @Test
    void aThreadIsInterruptedForItsUnitWhenItsJobWasCoveredNotBeforeAndNotAnotherThread() {
        RunningJobs running = new RunningJobs(16, 4);
        JobHandle handle = running.start(COVERED);
        assertFalse(running.interruptedForItsUnit(Thread.currentThread()), "nobody cancelled or withdrew its job");

        running.cancelCoveredBy(new JobKey(3, 1));
        assertTrue(Thread.interrupted());
        assertTrue(running.interruptedForItsUnit(Thread.currentThread()), "its job was covered");
        assertFalse(running.interruptedForItsUnit(Thread.ofVirtual().unstarted(() -> { })),
                "a thread that runs none of the jobs");
        running.cancelAll();
        assertTrue(running.interruptedForItsUnit(Thread.currentThread()),
                "covered first: the request's stop, which comes after, does not make it the stop's");
        running.end(handle);
    }

    @Test
    void aJobWithdrawnForTheReRunWasInterruptedForItsUnit() {
        RunningJobs running = new RunningJobs(16, 4);
        JobHandle handle = running.start(COVERED);
        assertTrue(running.withdraw(COVERED));
        assertTrue(Thread.interrupted());
        assertTrue(running.interruptedForItsUnit(Thread.currentThread()));
        running.end(handle);
    }

    @Test
    void aJobCancelledByTheRequestsStopWasNotInterruptedForItsUnit() {
        RunningJobs running = new RunningJobs(16, 4);
        JobHandle handle = running.start(COVERED);
        running.cancelAll();
        assertTrue(Thread.interrupted(), "the stop interrupts the job");
        assertTrue(handle.cancelled());
        assertFalse(running.interruptedForItsUnit(Thread.currentThread()), "the interrupt is the request's");
        running.end(handle);
    }

    @Test
    void aHandleNotYetStartedRunsOnNoThread() {
        JobHandle handle = new JobHandle(COVERED, UnitCounts.NONE);
        assertFalse(handle.runsOn(Thread.currentThread()));
        new RunningJobs(16, 4).start(handle);
        assertTrue(handle.runsOn(Thread.currentThread()), "the thread that started it");
    }
}
