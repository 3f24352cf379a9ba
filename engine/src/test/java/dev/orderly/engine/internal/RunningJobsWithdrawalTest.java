package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Withdrawing a job so that the re-run of the client's segment gets its worker, driven from the test's own thread
 * (every handle runs "on" it, so an interrupt meant for any job lands here): which job gives its worker up, when it
 * is interrupted for it, and what it may do afterwards.
 *
 * <p>Equivalent mutants, not tested: in {@code Handle.dialing} and {@code Handle.withdraw}, a {@code return false}
 * "replaced with false" and a {@code return true} "replaced with true" (javac's copies of the {@code finally} block
 * make the mutator see a returned variable where the source has a constant); in {@code withdrawHighestWaiting},
 * {@code compareTo(..) > 0} as {@code >= 0}: two handles never have equal keys (one running job per unit).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RunningJobsWithdrawalTest {

    private static final JobKey LOW = new JobKey(1, 0);
    private static final JobKey MIDDLE = new JobKey(2, 0);
    private static final JobKey HIGH = new JobKey(2, 1);

    // The unit whose re-run asks for a worker: no running job has it in the tests above.
    private static final JobKey RERUN = new JobKey(0, 3);

    private final RunningJobs running = new RunningJobs(16, 4);

    @AfterEach
    void clearTheInterrupt() {
        Thread.interrupted();
    }

    @Test
    void aUnitWithNoRunningJobHasNothingToWithdraw() {
        assertFalse(running.withdraw(LOW));
        running.end(running.start(LOW));
        assertFalse(running.withdraw(LOW), "its job has ended");
        assertFalse(Thread.interrupted());
    }

    @Test
    void aWaitingJobIsWithdrawnOnceInterruptedAndDialsNoMore() {
        JobHandle handle = running.start(LOW);
        assertTrue(running.withdraw(LOW));
        assertTrue(Thread.interrupted(), "interrupted where it waits");
        assertTrue(handle.withdrawn());
        assertFalse(running.withdraw(LOW), "withdrawn once only");
        assertFalse(Thread.interrupted(), "and interrupted once only");
        assertFalse(handle.dialing(true), "a withdrawn job starts no dial");
        assertFalse(handle.attach(() -> { }), "nor takes a call");
        assertTrue(handle.settle(), "an interrupt may have been sent for it");
    }

    @Test
    void aDialingJobIsWithdrawnWithoutAnInterruptAndStopsWhenTheDialEnds() {
        JobHandle handle = running.start(LOW);
        assertTrue(handle.dialing(true), "a job nobody withdrew may dial");
        assertTrue(running.withdraw(LOW));
        assertFalse(Thread.interrupted(), "a dial in flight is not interrupted");
        assertTrue(handle.withdrawn());
        assertTrue(handle.dialing(false), "the dial ends");
        assertFalse(handle.dialing(true), "and no other starts");
    }

    @Test
    void aJobBetweenDialsIsInterruptedAgain() {
        running.start(LOW).dialing(true);
        JobHandle other = running.start(MIDDLE);
        assertTrue(other.dialing(true));
        assertTrue(other.dialing(false));
        assertTrue(running.withdraw(MIDDLE));
        assertTrue(Thread.interrupted(), "a job whose dial has ended waits again: it is interrupted");
    }

    @Test
    void aJobOnATier2OrEndedOrCancelledKeepsItsWorker() {
        JobHandle onTier2 = running.start(LOW);
        assertTrue(onTier2.attach(() -> { }));
        JobHandle settled = running.start(MIDDLE);
        assertFalse(settled.settle(), "nothing was sent to it");
        JobHandle cancelled = running.start(HIGH);
        running.cancelCoveredBy(new JobKey(2, 2));
        assertTrue(Thread.interrupted(), "the covered job was interrupted");

        assertFalse(running.withdraw(LOW));
        assertFalse(running.withdraw(MIDDLE));
        assertFalse(running.withdraw(HIGH));
        assertFalse(Thread.interrupted(), "none of them was interrupted for a withdrawal");
        assertFalse(onTier2.withdrawn() || settled.withdrawn() || cancelled.withdrawn());
        assertTrue(cancelled.settle(), "the cancelled job was sent an interrupt");
        assertNull(running.withdrawHighestWaiting(RERUN), "no job may give its worker up");
    }

    @Test
    void theHighestWaitingJobGivesItsWorkerUpAndOnlyIt() {
        JobHandle low = running.start(LOW);
        JobHandle middle = running.start(MIDDLE);
        JobHandle high = running.start(HIGH);
        assertTrue(high.attach(() -> { }), "the highest is on a tier2");

        assertEquals(MIDDLE, running.withdrawHighestWaiting(RERUN));
        assertTrue(Thread.interrupted());
        assertTrue(middle.withdrawn());
        assertFalse(low.withdrawn(), "one job gives its worker up, not every waiting one");
        assertFalse(high.withdrawn());

        assertEquals(LOW, running.withdrawHighestWaiting(RERUN), "then the next one down");
        assertTrue(low.withdrawn());
        assertNull(running.withdrawHighestWaiting(RERUN));
    }

    /**
     * Regression: a re-run asked for a worker with every worker taken, a job ended meanwhile and the re-run's own job
     * was launched before the walker asked a job to give its worker up; that job, the only one not on a tier2 yet,
     * was withdrawn for its own re-run, and its dial, which had got in, was closed and made again (seen in
     * {@code SchedulingTest.aMissingOutputIsRerunOnceAndDelivered} as attempts 1, 2, 2).
     */
    @Test
    void theRerunsOwnJobNeverGivesItsWorkerUpToItself() {
        JobHandle rerun = running.start(LOW);
        JobHandle onTier2 = running.start(MIDDLE);
        assertTrue(onTier2.attach(() -> { }));

        assertNull(running.withdrawHighestWaiting(LOW), "the only waiting job is the re-run's own");
        assertFalse(rerun.withdrawn());
        assertFalse(Thread.interrupted(), "nothing was sent to it");

        JobHandle higher = running.start(HIGH);
        assertEquals(HIGH, running.withdrawHighestWaiting(LOW), "another waiting job still gives its worker up");
        assertTrue(higher.withdrawn());
        assertFalse(rerun.withdrawn());
    }
}
