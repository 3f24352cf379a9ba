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
        RunningJobs running = new RunningJobs();
        RunningJobs.Handle handle = running.start(COVERED);
        running.cancelCoveredBy(new JobKey(3, 1));
        assertTrue(Thread.interrupted(), "the covered job's thread was interrupted");
        assertTrue(handle.cancelled());
        assertFalse(handle.attach(() -> { }), "a call that comes after the cancellation is not taken");
    }

    @Test
    void aJobThatHasEndedIsNeverInterrupted() {
        RunningJobs running = new RunningJobs();
        RunningJobs.Handle handle = running.start(COVERED);
        running.end(handle);

        handle.cancel(); // as a cancelCoveredBy that found the handle just before the job ended
        assertFalse(Thread.currentThread().isInterrupted(), "the thread has moved on: no interrupt may reach it");
        assertFalse(handle.cancelled());
    }

    @Test
    void aUnitHasOneRunningJobAtATime() {
        RunningJobs running = new RunningJobs();
        RunningJobs.Handle first = running.start(COVERED);
        assertThrows(IllegalStateException.class, () -> running.start(COVERED));
        running.end(first);
        running.end(running.start(COVERED));
    }
}
