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

    /** Every running job is on a tier2: the re-run of {@code RERUN} waits for the first to come off it. */
    private void everyJobOnATier2(JobHandle... handles) {
        for (JobHandle handle : handles) {
            assertTrue(handle.attach(() -> { }));
        }
        assertNull(running.withdrawHighestWaiting(RERUN), "no job may give its worker up now");
    }

    @Test
    void theFirstJobOffItsTier2GivesItsWorkerUpToTheWaitingReRunAndOnlyIt() {
        JobHandle low = running.start(LOW);
        JobHandle middle = running.start(MIDDLE);
        everyJobOnATier2(low, middle);

        middle.detach();
        assertTrue(middle.givesUpForTheRerun(), "the first job off its tier2 gives its worker up");
        assertTrue(middle.withdrawn());
        assertFalse(Thread.interrupted(), "on its own thread: nothing interrupts it for it");
        low.detach();
        assertFalse(low.givesUpForTheRerun(), "the re-run has its worker: the next job keeps its own");
        assertFalse(low.withdrawn());
    }

    @Test
    void aCoveredJobOffItsTier2FreesNoWorkerAndLeavesTheReRunToTheNextOne() {
        JobHandle covered = running.start(LOW);
        JobHandle next = running.start(MIDDLE);
        everyJobOnATier2(covered, next);
        running.cancelCoveredBy(new JobKey(1, 1));
        assertTrue(covered.cancelled());
        assertTrue(Thread.interrupted(), "the covered job, its call closed, was interrupted");

        assertFalse(covered.givesUpForTheRerun(), "a cancelled job stops anyway, but is not a withdrawn one");
        assertFalse(covered.withdrawn());
        next.detach();
        assertTrue(next.givesUpForTheRerun(), "the re-run still waits: the next job off its tier2 gives its worker up");
        assertTrue(next.withdrawn());
    }

    @Test
    void aJobTheWalkerWithdrewAlreadyServesTheWaitingReRunAndTheNextKeepsItsWorker() {
        JobHandle low = running.start(LOW);
        JobHandle middle = running.start(MIDDLE);
        everyJobOnATier2(low, middle);
        // Off its tier2, and withdrawn by the walker (another look at the jobs) before it asks for itself.
        middle.detach();
        assertTrue(running.withdraw(MIDDLE));
        assertTrue(Thread.interrupted(), "withdrawn by the walker: interrupted");

        assertFalse(middle.givesUpForTheRerun(), "already withdrawn: its pending interrupt stops it");
        low.detach();
        assertFalse(low.givesUpForTheRerun(), "one worker was asked for, and one was freed");
        assertFalse(low.withdrawn());
    }

    @Test
    void theReRunsOwnJobStartingEndsTheWaitForAWorker() {
        JobHandle low = running.start(LOW);
        everyJobOnATier2(low);

        running.end(running.start(RERUN));
        low.detach();
        assertFalse(low.givesUpForTheRerun(), "the re-run has a worker of its own: nobody gives one up to it");
        assertFalse(low.withdrawn());
    }

    @Test
    void anotherUnitsJobStartingLeavesTheReRunWaitingForAWorker() {
        JobHandle low = running.start(LOW);
        everyJobOnATier2(low);

        JobHandle other = running.start(HIGH);
        assertTrue(other.attach(() -> { }));
        low.detach();
        assertTrue(low.givesUpForTheRerun(), "the re-run still waits for a worker");
    }

    @Test
    void aJobOffItsTier2BetweenTheWalkersTwoLooksIsWithdrawnAndNamed() {
        // The walker looks at the jobs, finds every one on a tier2, says the re-run waits, and looks once more: the
        // job that came off its tier2 just after the first look is found by the second.
        JobHandle handle = new JobHandle(MIDDLE, UnitCounts.NONE) {
            private boolean looked;

            @Override
            boolean mayBeWithdrawn() {
                boolean may = super.mayBeWithdrawn();
                if (!looked) {
                    looked = true;
                    detach(); // the job comes off its tier2 as the walker's first look passes it
                }
                return may;
            }
        };
        running.start(handle);
        assertTrue(handle.attach(() -> { }));

        assertEquals(MIDDLE, running.withdrawHighestWaiting(RERUN), "the job the second look withdrew");
        assertTrue(handle.withdrawn());
        assertTrue(Thread.interrupted(), "interrupted where it waits");
        JobHandle later = running.start(LOW);
        assertFalse(later.givesUpForTheRerun(), "served: no other job gives its worker up");
    }
}
