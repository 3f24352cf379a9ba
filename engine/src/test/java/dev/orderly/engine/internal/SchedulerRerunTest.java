package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler at the client's segment, driven from one thread with no call that blocks: what a re-run asks of the
 * caller, how many jobs of the segment succeeded, and how the walker names a segment that is ready.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class SchedulerRerunTest {

    /** 10 segments of 2 stages, 2 workers, a look-ahead of 4 segments. */
    private static final RequestPlan PLAN = new RequestPlan(0, 10, 2, 2);
    /** What a job that dialed once and succeeded reports; its counts are the unit's so far, a re-run's included. */
    private static final UnitCounts ONE_DIAL = new UnitCounts(1, 0, 0, 1);

    private static Scheduler withSegmentZeroDone() throws InterruptedException {
        Scheduler scheduler = new Scheduler(PLAN, 4);
        Launch first = scheduler.awaitNextJob();
        assertEquals(new JobKey(0, 1), first.key());
        scheduler.jobEnded(first.key(), true, ONE_DIAL);
        return scheduler;
    }

    @Test
    void aRerunWithAWorkerFreeAsksForNoWithdrawal() throws Exception {
        Scheduler scheduler = withSegmentZeroDone();
        scheduler.awaitNextJob(); // one of the two workers busy

        assertFalse(scheduler.rerun(0), "a worker is free for the re-run");
    }

    @Test
    void aRerunWithEveryWorkerTakenAsksForAWithdrawal() throws Exception {
        Scheduler scheduler = withSegmentZeroDone();
        scheduler.awaitNextJob();
        scheduler.awaitNextJob();
        assertEquals(2, scheduler.alive());

        assertTrue(scheduler.rerun(0), "every worker is taken: a job must give its worker up");
    }

    @Test
    void aWithdrawnJobsWorkerGoesToTheReRunAndItsUnitLaunchesAgainAfterIt() throws Exception {
        // One stage, 2 workers: segment 0 done, segments 1 and 2 out, and the owner waiting for a free worker.
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 10, 1, 2), 4);
        scheduler.jobEnded(scheduler.awaitNextJob().key(), true, ONE_DIAL);
        CompletableFuture<Launch> owner = SchedulerTest.ownerWaitingForAFreeWorker(scheduler);
        assertTrue(scheduler.rerun(0), "every worker is taken");

        // The withdrawal frees a worker and must wake the owner.
        JobKey withdrawn = new JobKey(2, 0);
        UnitCounts itsCounts = new UnitCounts(2, 1, 0, 0, true);
        scheduler.jobWithdrawn(withdrawn, itsCounts);

        assertEquals(new JobKey(0, 0), owner.get(5, TimeUnit.SECONDS).key(), "the re-run, on the freed worker");
        scheduler.jobEnded(new JobKey(1, 0), true, ONE_DIAL);
        Launch again = scheduler.awaitNextJob();
        assertEquals(withdrawn, again.key(), "the withdrawn unit, launched again");
        assertEquals(itsCounts, again.prior(), "from the counts its withdrawn job left, the failure delay it owes too");
    }

    @Test
    void theSuccessfulJobsOfTheClientsSegmentCountItsReRuns() throws Exception {
        Scheduler scheduler = withSegmentZeroDone();
        assertEquals(1, scheduler.successfulJobsOf(0));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> scheduler.successfulJobsOf(1));
        assertEquals("the client reads segment 0, not 1", e.getMessage());

        scheduler.rerun(0);
        Launch again = scheduler.awaitNextJob();
        assertEquals(new JobKey(0, 1), again.key());
        scheduler.jobEnded(again.key(), true, new UnitCounts(2, 0, 0, 2));
        assertEquals(2, scheduler.successfulJobsOf(0));
    }

    @Test
    void aReadySegmentIsNamedReadyNotWaitingForAStage() throws Exception {
        Scheduler scheduler = withSegmentZeroDone();
        assertEquals("segment 0 ready, not yet handed to the client", scheduler.waitingFor());

        scheduler.delivered(0);
        assertEquals("segment 1 waiting for stage 1", scheduler.waitingFor(), "nothing launched: its last stage");
        Launch next = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 1), next.key());
        scheduler.jobEnded(next.key(), true, ONE_DIAL);
        assertEquals("segment 1 ready, the client still on segment 0", scheduler.waitingFor());
    }

    @Test
    void twoJobsWithdrawnForOneReRunEachLaunchAgainFromTheCountsTheyLeft() throws Exception {
        // One stage, 3 workers: segment 0 done, segments 1 to 3 out. The walker's withdrawal and a job that comes off
        // its tier2 can both give a worker up to the one re-run (RunningJobs.withdrawHighestWaiting): two withdrawals,
        // neither unit launched again between them.
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 10, 1, 3), 8);
        scheduler.jobEnded(scheduler.awaitNextJob().key(), true, ONE_DIAL);
        JobKey[] keys = new JobKey[3];
        assertEquals(3, scheduler.awaitNextJobs(keys, new UnitCounts[3]));
        assertTrue(scheduler.rerun(0), "every worker is taken");
        UnitCounts highestLeft = new UnitCounts(3, 2, 0, 0, true);
        UnitCounts nextLeft = new UnitCounts(1, 1, 0, 0);
        scheduler.jobWithdrawn(new JobKey(3, 0), highestLeft);
        scheduler.jobWithdrawn(new JobKey(2, 0), nextLeft);

        JobKey[] launched = new JobKey[3];
        UnitCounts[] priors = new UnitCounts[3];
        assertEquals(2, scheduler.awaitNextJobs(launched, priors), "the two freed workers");
        assertEquals(new JobKey(0, 0), launched[0], "the re-run first");
        assertEquals(new JobKey(2, 0), launched[1]);
        assertEquals(nextLeft, priors[1], "segment 2 starts from what its withdrawn job left");
        scheduler.jobEnded(new JobKey(0, 0), true, ONE_DIAL);
        Launch last = scheduler.awaitNextJob();
        assertEquals(new JobKey(3, 0), last.key());
        assertEquals(highestLeft, last.prior(),
                "the unit withdrawn first keeps its counts through the second withdrawal, its failure delay too");
    }

    @Test
    void aJobAskingWithoutTheLockHearsWhatIsNeededSaysOfAStageTheReRunLeftDone() throws Exception {
        // Segment 0's last stage done, then its output found missing: the re-run makes the last stage PENDING again
        // and leaves stage 0 DONE. A job of stage 0 (one the last stage covered, still on its way out) is not needed,
        // whether it asks under the lock or without it.
        Scheduler scheduler = withSegmentZeroDone();
        JobKey lower = new JobKey(0, 0);
        assertFalse(scheduler.isNeededByItsJob(lower), "covered by the done last stage");
        scheduler.rerun(0);

        assertFalse(scheduler.isNeeded(lower), "stage 0 stays DONE through the re-run");
        assertFalse(scheduler.isNeededByItsJob(lower), "the answer without the lock is the one under it");
        assertTrue(scheduler.isNeededByItsJob(new JobKey(0, 1)), "the re-run's own unit is needed");
    }
}
