package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler's permits under a real engine-wide job cap ({@link EngineJobCap}): a job's end, a failure, a stop and
 * a finished request each leave the cap's permits where the next job needs them. The owner's calls that must block
 * run on a thread of their own; the rest is driven from the test thread.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class SchedulerUnderACapTest {

    /** 2 segments of 2 stages, 2 workers. */
    private static final RequestPlan TWO_SEGMENTS = new RequestPlan(0, 2, 2, 2);
    /** 10 segments of 2 stages, 2 workers. */
    private static final RequestPlan TEN_SEGMENTS = new RequestPlan(0, 10, 2, 2);
    private static final UnitCounts ONE_DIAL = new UnitCounts(1, 0, 0, 1);


    private static <T> T result(CompletableFuture<T> call, String what) throws Exception {
        try {
            return call.get(5, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " still waiting 5 s after the event that should release it", e);
        } catch (ExecutionException e) {
            throw new AssertionError(what + " threw", e.getCause());
        }
    }

    @Test
    void aJobsEndWithTheNextUnitReadyHandsItsPermitBackToItsOwnRequest() throws Exception {
        EngineJobCap cap = new EngineJobCap(1);
        Scheduler scheduler = new Scheduler(TEN_SEGMENTS, 4, false, cap.join("a"));
        Launch first = scheduler.awaitNextJob();
        assertEquals(new JobKey(0, 1), first.key());

        scheduler.jobEnded(first.key(), true, ONE_DIAL);

        // Segment 1's units are ready: the freed permit is handed to this request for them, not set free.
        assertEquals(1, cap.alive(), cap.toString());
        assertEquals(1, cap.heldByRequest().get("a"), cap.toString());
        Launch second = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 1), second.key());
        assertEquals(1, cap.alive(), cap.toString());
    }

    @Test
    void underACapUnitsAreHandedOutOneAtATimeEvenWithRoomForMore() throws Exception {
        EngineJobCap cap = new EngineJobCap(4);
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 10, 1, 4), 8, false, cap.join("a"));
        JobKey[] keys = new JobKey[Scheduler.LAUNCH_BATCH];
        UnitCounts[] priors = new UnitCounts[Scheduler.LAUNCH_BATCH];

        assertEquals(1, scheduler.awaitNextJobs(keys, priors), "units handed out at once under a cap");
        assertEquals(new JobKey(0, 0), keys[0]);
        assertEquals(1, cap.alive(), cap.toString());
        assertEquals(1, scheduler.awaitNextJobs(keys, priors));
        assertEquals(new JobKey(1, 0), keys[0]);
        assertEquals(2, cap.alive(), cap.toString());
    }

    @Test
    void unitsWhoseJobsCouldNotBeForkedFreeTheirWorkersAndPermitsAndFailTheRequest() throws Exception {
        EngineJobCap cap = new EngineJobCap(4);
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 10, 1, 4), 8, false, cap.join("a"));
        assertEquals(new JobKey(0, 0), scheduler.awaitNextJob().key());
        assertEquals(new JobKey(1, 0), scheduler.awaitNextJob().key());
        assertEquals(new JobKey(2, 0), scheduler.awaitNextJob().key());
        assertEquals(3, cap.alive(), cap.toString());

        scheduler.notForked(2);

        assertEquals(1, scheduler.alive());
        assertEquals(1, cap.alive(), "the permits of the two units not forked are free: " + cap);
        assertNull(scheduler.awaitNextJob(), "nothing more is handed out once a job could not be forked");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> scheduler.notForked(0));
        assertEquals("units must be at least 1, was 0", e.getMessage());
    }

    @Test
    void aJobsEndWithNothingLeftToLaunchSetsItsPermitFree() throws Exception {
        EngineJobCap cap = new EngineJobCap(1);
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 1, 1, 1), 1, false, cap.join("a"));
        Launch only = scheduler.awaitNextJob();

        scheduler.jobEnded(only.key(), true, ONE_DIAL);

        assertEquals(0, cap.alive(), cap.toString());
    }

    @Test
    void aStopEndsTheOwnersWaitForAPermit() throws Exception {
        EngineJobCap cap = new EngineJobCap(1);
        Scheduler other = new Scheduler(TEN_SEGMENTS, 4, false, cap.join("other"));
        assertEquals(new JobKey(0, 1), other.awaitNextJob().key());
        Scheduler scheduler = new Scheduler(TEN_SEGMENTS, 4, false, cap.join("a"));
        CompletableFuture<Launch> owner = SchedulerTest.inBackground(scheduler::awaitNextJob);
        await().atMost(Duration.ofSeconds(5)).until(() -> cap.waiting() == 1);

        scheduler.stop();

        assertNull(result(owner, "awaitNextJob of a stopped request"));
        assertEquals(0, cap.waiting(), cap.toString());
        other.stop();
    }

    @Test
    void aFailedRequestTakesNoMorePermits() throws Exception {
        EngineJobCap cap = new EngineJobCap(2);
        JobPermits permits = cap.join("a");
        Scheduler scheduler = new Scheduler(TEN_SEGMENTS, 4, false, permits);
        scheduler.awaitNextJob();

        scheduler.jobFailed();

        assertEquals(0, cap.alive(), cap.toString());
        assertFalse(permits.take(), "the failed request's permits are closed, though both are free: " + cap);
        assertNull(scheduler.awaitNextJob());
        assertEquals(0, cap.alive(), cap.toString());
    }

    @Test
    void aRerunWithNoJobOfItsOwnAliveAsksForNoWithdrawalThoughTheCapIsFull() throws Exception {
        EngineJobCap cap = new EngineJobCap(1);
        Scheduler scheduler = new Scheduler(TEN_SEGMENTS, 4, false, cap.join("a"));
        Launch first = scheduler.awaitNextJob();
        Scheduler other = new Scheduler(TEN_SEGMENTS, 4, false, cap.join("other"));
        CompletableFuture<Launch> otherOwner = SchedulerTest.inBackground(other::awaitNextJob);
        await().atMost(Duration.ofSeconds(5)).until(() -> cap.waiting() == 1);
        scheduler.jobEnded(first.key(), true, ONE_DIAL);
        assertEquals(new JobKey(0, 1), result(otherOwner, "the other request's awaitNextJob").key());
        assertEquals(0, scheduler.alive());

        assertFalse(scheduler.rerun(0), "no job of its own to give a worker up, though no permit is free: " + cap);
        scheduler.stop();
        other.stop();
    }

    /**
     * Both segments done, with the lower stage of segment 1 still alive (shadowed by the higher one), which then
     * gives its worker up: its permit is kept for a re-run the request no longer needs.
     */
    private static Scheduler withAPermitKeptAndNothingToLaunch(EngineJobCap cap) throws InterruptedException {
        Scheduler scheduler = new Scheduler(TWO_SEGMENTS, 2, false, cap.join("a"));
        Launch top0 = scheduler.awaitNextJob();
        Launch low1 = scheduler.awaitNextJob();
        assertEquals(new JobKey(0, 1), top0.key());
        assertEquals(new JobKey(1, 0), low1.key());
        scheduler.jobEnded(top0.key(), true, ONE_DIAL);
        Launch top1 = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 1), top1.key());
        scheduler.jobEnded(top1.key(), true, ONE_DIAL);
        assertEquals(1, cap.alive(), cap.toString());
        scheduler.jobWithdrawn(low1.key(), UnitCounts.NONE);
        assertEquals(0, scheduler.alive());
        assertEquals(1, cap.heldByRequest().get("a"), "kept for the re-run: " + cap);
        return scheduler;
    }

    @Test
    void anOwnerWithNothingToLaunchGivesAPermitHandedToItOn() throws Exception {
        EngineJobCap cap = new EngineJobCap(2);
        Scheduler scheduler = withAPermitKeptAndNothingToLaunch(cap);

        CompletableFuture<Launch> owner = SchedulerTest.inBackground(scheduler::awaitNextJob);

        await().atMost(Duration.ofSeconds(5)).until(() -> cap.alive() == 0);
        assertFalse(owner.isDone(), "nothing to launch yet: the owner waits");
        scheduler.stop();
        assertNull(result(owner, "awaitNextJob of a stopped request"));
    }

    @Test
    void aFinishedRequestGivesAPermitHandedToItOn() throws Exception {
        EngineJobCap cap = new EngineJobCap(2);
        Scheduler scheduler = withAPermitKeptAndNothingToLaunch(cap);
        scheduler.delivered(0);
        scheduler.delivered(1);

        assertNull(scheduler.awaitNextJob(), "every segment delivered");

        assertEquals(0, cap.alive(), cap.toString());
    }

    @Test
    void theClientsSegmentIsTheOneItWaitsFor() throws Exception {
        Scheduler scheduler = new Scheduler(new RequestPlan(5, 10, 2, 2), 4);
        assertEquals(5, scheduler.reading());
        Launch first = scheduler.awaitNextJob();
        scheduler.jobEnded(first.key(), true, ONE_DIAL);
        scheduler.delivered(5);
        assertEquals(6, scheduler.reading());
        assertTrue(scheduler.isNeeded(new JobKey(6, 0)));
    }
}
