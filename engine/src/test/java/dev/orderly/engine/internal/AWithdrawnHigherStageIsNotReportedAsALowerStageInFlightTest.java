package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import org.junit.jupiter.api.Test;

/**
 * A deadline's message names "the stage your segment waits for, the highest one with a job in flight, else the last"
 * (engine-rules.md). A job of stage 1 that was launched without a job of stage 0 of its segment (a higher stage covers
 * the lower) and then gave its worker up to the client's re-run left stage 0 counted as launched: the message then said
 * "waiting for stage 0", a stage no job runs and none will run (the relaunched stage 1 covers it).
 */
class AWithdrawnHigherStageIsNotReportedAsALowerStageInFlightTest {

    private static final UnitCounts ONE_DIAL = new UnitCounts(1, 0, 0, 1);

    @Test
    void theClientsSegmentWhoseStage1WasWithdrawnWaitsForStage1() throws InterruptedException {
        // 2 segments, 2 stages, 1 worker
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 2, 2, 1), 4);
        Launch first = scheduler.awaitNextJob();
        assertEquals(new JobKey(0, 1), first.key(), "segment 0's stage 1 covers its stage 0");
        scheduler.jobEnded(first.key(), true, ONE_DIAL);
        Launch second = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 1), second.key(), "segment 1's stage 1, no job of its stage 0");
        // segment 0's output is missing: the one worker is taken, so segment 1's stage 1 gives it up
        assertTrue(scheduler.rerun(0));
        scheduler.jobWithdrawn(second.key(), UnitCounts.NONE);
        Launch rerun = scheduler.awaitNextJob();
        assertEquals(new JobKey(0, 1), rerun.key());
        scheduler.jobEnded(rerun.key(), true, new UnitCounts(2, 0, 0, 2));
        scheduler.delivered(0);
        // segment 1 now waits for the relaunch of its stage 1; nothing of it is in flight
        assertEquals("segment 1 waiting for stage 1", scheduler.waitingFor(),
                "no job of stage 0 runs or will run: its last stage is what it waits for");
    }

    @Test
    void aLowerStageWhoseJobStillRunsIsWhatTheSegmentWaitsForAfterTheHigherOneIsWithdrawn() throws InterruptedException {
        // 3 segments, 2 stages, 3 workers
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 3, 2, 3), 6);
        Launch first = scheduler.awaitNextJob();
        assertEquals(new JobKey(0, 1), first.key());
        Launch lower = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 0), lower.key(), "segment 1's stage 1 waits for segment 0's stage 0");
        scheduler.jobEnded(first.key(), true, ONE_DIAL);
        Launch higher = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 1), higher.key(), "segment 1's stage 1 while its stage 0 still runs");
        scheduler.delivered(0);
        scheduler.jobWithdrawn(higher.key(), UnitCounts.NONE);
        assertEquals("segment 1 waiting for stage 0", scheduler.waitingFor(),
                "the job of stage 0 is still in flight: it is the highest stage with a job in flight");
    }
}
