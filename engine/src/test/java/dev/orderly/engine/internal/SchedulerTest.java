package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler as its two callers see it: the request's owner asking for the next unit and reporting jobs ended,
 * and the output walker waiting for the client's segment and reporting it delivered or re-run. A call that must
 * block is made on a thread of its own and checked to be still waiting after 200 ms, then to return within seconds
 * of the event that releases it.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class SchedulerTest {

    /** 10 segments of 2 stages, 2 workers, a look-ahead of 4 segments. */
    private static final RequestPlan PLAN = new RequestPlan(0, 10, 2, 2);
    private static final long LOOKAHEAD = 4;

    /** Runs {@code call} on a virtual thread of its own (also used by the other scheduler tests). */
    static <T> CompletableFuture<T> inBackground(Callable<T> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofVirtual().name("scheduler-test-caller").start(() -> {
            try {
                result.complete(call.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return result;
    }

    private static void assertStillWaiting(CompletableFuture<?> call, String what) {
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2))
                .untilAsserted(() -> assertFalse(call.isDone(), what + " returned: " + call));
    }

    private static <T> T result(CompletableFuture<T> call, String what) throws Exception {
        return result(call, what, () -> "");
    }

    /**
     * What {@code call} (made {@linkplain #inBackground in the background}) returns within 5 s; otherwise fails
     * with {@code what}, and {@code state} as it is then (the cap, say), to show why.
     */
    static <T> T result(CompletableFuture<T> call, String what, Supplier<String> state) throws InterruptedException {
        try {
            return call.get(5, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " still waiting 5 s after the event that should release it" + state.get(),
                    e);
        } catch (ExecutionException e) {
            throw new AssertionError(what + " threw", e.getCause());
        }
    }

    /**
     * Asserts that {@code call} throws IllegalStateException; made on a thread of its own, so that a call that waits
     * instead fails the test within seconds.
     */
    private static IllegalStateException assertRejected(Callable<?> call, String what) throws Exception {
        CompletableFuture<?> outcome = inBackground(call);
        try {
            Object returned = outcome.get(5, TimeUnit.SECONDS);
            throw new AssertionError(what + " returned " + returned + " instead of throwing IllegalStateException");
        } catch (TimeoutException e) {
            throw new AssertionError(what + " waited instead of throwing IllegalStateException", e);
        } catch (ExecutionException e) {
            return assertInstanceOf(IllegalStateException.class, e.getCause(), what);
        }
    }

    /** Runs segment 0 to its last stage: the client's output is ready. */
    private static Scheduler withSegmentZeroDone() throws InterruptedException {
        Scheduler scheduler = new Scheduler(PLAN, LOOKAHEAD);
        Launch first = scheduler.awaitNextJob();
        assertEquals(new JobKey(0, 1), first.key());
        scheduler.jobEnded(first.key(), true, ONE_DIAL);
        return scheduler;
    }

    /**
     * Hands out a job to each of the two workers, then asks for a third on a thread of its own: it must wait (also
     * used by the other scheduler tests).
     */
    static CompletableFuture<Launch> ownerWaitingForAFreeWorker(Scheduler scheduler)
            throws InterruptedException {
        scheduler.awaitNextJob();
        scheduler.awaitNextJob();
        CompletableFuture<Launch> owner = inBackground(scheduler::awaitNextJob);
        assertStillWaiting(owner, "the owner with every worker busy");
        return owner;
    }

    /** What a job that dialed once reports when it ends. */
    private static final UnitCounts ONE_DIAL = new UnitCounts(1, 0, 0);

    /** Whether the client's segment's output is ready: the walker's wait, with no deadline. */
    private static boolean ready(Scheduler scheduler, long segment) throws InterruptedException {
        return outputWait(scheduler, segment) == Scheduler.OutputWait.READY;
    }

    /** How the walker's wait for the client's segment ends, with no deadline. */
    private static Scheduler.OutputWait outputWait(Scheduler scheduler, long segment) throws InterruptedException {
        return scheduler.awaitOutput(segment, Deadline.after(null));
    }

    @Test
    void handsOutUnitsInLaunchOrderAndNoMoreThanTheWorkersAtOnce() throws Exception {
        Scheduler scheduler = new Scheduler(PLAN, LOOKAHEAD);

        assertEquals(new Launch(new JobKey(0, 1), UnitCounts.NONE), scheduler.awaitNextJob());
        assertEquals(new Launch(new JobKey(1, 0), UnitCounts.NONE), scheduler.awaitNextJob());
        assertEquals(2, scheduler.alive());
        assertEquals(LOOKAHEAD, scheduler.trackedSegments());
        CompletableFuture<Launch> third = inBackground(scheduler::awaitNextJob);
        assertStillWaiting(third, "a third job with 2 workers busy");

        scheduler.jobEnded(new JobKey(0, 1), true, ONE_DIAL);

        assertEquals(new Launch(new JobKey(1, 1), UnitCounts.NONE), result(third, "the next job after a worker freed up"));
        assertEquals(2, scheduler.alive());
        scheduler.jobEnded(new JobKey(1, 0), false, ONE_DIAL);
        assertEquals(1, scheduler.alive(), "a job that ended without success frees its worker too");
    }

    @Test
    void handsOutEveryUnitThatMayRunNowInOneCallInLaunchOrder() throws Exception {
        // 1 stage, 4 workers, a look-ahead of 8: four units may run at once.
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 10, 1, 4), 8);
        JobKey[] keys = new JobKey[Scheduler.LAUNCH_BATCH];
        UnitCounts[] priors = new UnitCounts[Scheduler.LAUNCH_BATCH];

        assertEquals(4, scheduler.awaitNextJobs(keys, priors), "units handed out with 4 workers free");
        for (int segment = 0; segment < 4; segment++) {
            assertEquals(new JobKey(segment, 0), keys[segment]);
            assertEquals(UnitCounts.NONE, priors[segment]);
        }
        assertNull(keys[4], "nothing written past the units handed out");
        assertNull(priors[4], "nothing written past the units handed out");
        assertEquals(4, scheduler.alive());

        scheduler.jobEnded(new JobKey(0, 0), true, ONE_DIAL);
        scheduler.jobEnded(new JobKey(2, 0), true, ONE_DIAL);
        assertEquals(2, scheduler.awaitNextJobs(keys, priors), "units handed out with 2 workers free");
        assertEquals(new JobKey(4, 0), keys[0]);
        assertEquals(new JobKey(5, 0), keys[1]);
        assertEquals(4, scheduler.alive());
    }

    @Test
    void handsOutNoMoreUnitsAtOnceThanThereIsRoomFor() throws Exception {
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 10, 1, 4), 8);
        JobKey[] two = new JobKey[2];

        assertEquals(2, scheduler.awaitNextJobs(two, new UnitCounts[2]));
        assertEquals(new JobKey(0, 0), two[0]);
        assertEquals(new JobKey(1, 0), two[1]);
        assertEquals(2, scheduler.alive(), "the units not handed out are not counted as alive");
        assertEquals(new JobKey(2, 0), scheduler.awaitNextJob().key(), "the next unit is the one after the batch");
    }

    @Test
    void handsOutNothingAtOnceOnceStoppedOrFinished() throws Exception {
        Scheduler stopped = new Scheduler(PLAN, LOOKAHEAD);
        stopped.stop();
        assertEquals(0, stopped.awaitNextJobs(new JobKey[4], new UnitCounts[4]));

        Scheduler finished = new Scheduler(new RequestPlan(0, 1, 1, 2), 1);
        Launch only = finished.awaitNextJob();
        finished.jobEnded(only.key(), true, ONE_DIAL);
        finished.delivered(0);
        assertEquals(0, finished.awaitNextJobs(new JobKey[4], new UnitCounts[4]));
    }

    @Test
    void aBatchMustHaveRoomForOneUnitAndAPriorForEachKey() {
        Scheduler scheduler = new Scheduler(PLAN, LOOKAHEAD);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> scheduler.awaitNextJobs(new JobKey[0], new UnitCounts[0]));
        assertEquals("keys and priors must have the same length, at least 1, had 0 and 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> scheduler.awaitNextJobs(new JobKey[2], new UnitCounts[1]));
        assertEquals("keys and priors must have the same length, at least 1, had 2 and 1", e.getMessage());
        assertEquals(0, scheduler.alive());
    }

    @Test
    void aReadyOutputIsReadyAtOnceAndStaysSoUntilDelivered() throws Exception {
        Scheduler scheduler = withSegmentZeroDone();

        assertTrue(ready(scheduler, 0));
        assertTrue(ready(scheduler, 0), "asked again before the delivery");
        scheduler.delivered(0);
        CompletableFuture<Boolean> next = inBackground(() -> ready(scheduler, 1));
        assertStillWaiting(next, "awaitOutput(1) right after segment 0 was delivered");
        scheduler.stop();
        assertFalse(result(next, "awaitOutput(1) after stop"));
    }

    @Test
    void aRerunMakesTheClientsReadyOutputWaitAgain() throws Exception {
        Scheduler scheduler = withSegmentZeroDone();
        assertTrue(ready(scheduler, 0));

        scheduler.rerun(0);

        CompletableFuture<Boolean> output = inBackground(() -> ready(scheduler, 0));
        assertStillWaiting(output, "awaitOutput(0) after a re-run of its ready output");
        Launch rerun = scheduler.awaitNextJob();
        assertEquals(new JobKey(0, 1), rerun.key());
        scheduler.jobEnded(rerun.key(), true, ONE_DIAL);
        assertTrue(result(output, "awaitOutput(0) after the re-run was done"));
    }

    @Test
    void keepsStateForTheLookaheadCappedByTheRequestsLength() {
        assertEquals(4, new Scheduler(PLAN, LOOKAHEAD).trackedSegments());
        assertEquals(3, new Scheduler(new RequestPlan(5, 8, 2, 2), LOOKAHEAD).trackedSegments());
    }

    @Test
    void theLookaheadIsTheFactorTimesTheWorkersRoundedUpAndAtLeastOne() {
        assertEquals(6, Scheduler.lookahead(2.0, 3));
        assertEquals(5, Scheduler.lookahead(1.5, 3));
        assertEquals(1, Scheduler.lookahead(0.01, 1));
        assertEquals(Scheduler.MAX_LOOKAHEAD, Scheduler.lookahead(1, (int) Scheduler.MAX_LOOKAHEAD));
        IllegalArgumentException tooFar = assertThrows(IllegalArgumentException.class,
                () -> Scheduler.lookahead(1e12, 1000));
        assertTrue(tooFar.getMessage().contains("lookaheadFactor 1.0E12") && tooFar.getMessage().contains("1000"),
                tooFar.getMessage());
    }

    @Test
    void theWalkerWaitsUntilTheLastStageOfItsSegmentIsDone() throws Exception {
        Scheduler scheduler = new Scheduler(PLAN, LOOKAHEAD);
        Launch first = scheduler.awaitNextJob();
        Launch second = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 0), second.key());
        CompletableFuture<Boolean> output = inBackground(() -> ready(scheduler, 0));
        assertStillWaiting(output, "awaitOutput(0) before any job ended");

        scheduler.jobEnded(second.key(), true, ONE_DIAL);
        assertStillWaiting(output, "awaitOutput(0) after a unit of segment 1 was done");
        scheduler.jobEnded(first.key(), true, ONE_DIAL);

        assertTrue(result(output, "awaitOutput(0) after its last stage was done"));
    }

    @Test
    void aJobThatEndsWithoutSuccessDoesNotMakeItsUnitDone() throws Exception {
        Scheduler scheduler = new Scheduler(PLAN, LOOKAHEAD);
        Launch first = scheduler.awaitNextJob();
        CompletableFuture<Scheduler.OutputWait> output = inBackground(() -> outputWait(scheduler, 0));

        scheduler.jobEnded(first.key(), false, ONE_DIAL);

        assertStillWaiting(output, "awaitOutput(0) after its job ended without success");
        assertTrue(scheduler.isNeeded(first.key()));
        scheduler.stop();
        assertEquals(Scheduler.OutputWait.STOPPED, result(output, "awaitOutput(0) after stop"));
    }

    @Test
    void theWalkerMayAskOnlyForTheClientsSegment() throws Exception {
        Scheduler scheduler = withSegmentZeroDone();

        IllegalStateException wait = assertRejected(() -> ready(scheduler, 1), "awaitOutput(1)");
        IllegalStateException delivered = assertRejected(() -> {
            scheduler.delivered(1);
            return null;
        }, "delivered(1)");
        IllegalStateException rerun = assertRejected(() -> {
            scheduler.rerun(1);
            return null;
        }, "rerun(1)");

        for (IllegalStateException e : new IllegalStateException[] {wait, delivered, rerun}) {
            assertEquals("the client reads segment 0, not 1", e.getMessage());
        }
        assertTrue(ready(scheduler, 0), "segment 0 is still the client's, and ready");
    }

    @Test
    void aDeliveryMovesTheClientToTheNextSegmentAndTheLookaheadWithIt() throws Exception {
        Scheduler scheduler = withSegmentZeroDone();
        assertTrue(ready(scheduler, 0));

        scheduler.delivered(0);

        assertRejected(() -> ready(scheduler, 0), "awaitOutput(0) once segment 0 was delivered");
        assertFalse(scheduler.isNeeded(new JobKey(0, 0)), "a unit of a delivered segment");
        assertTrue(scheduler.isNeeded(new JobKey(4, 0)), "a unit of the segment that entered the look-ahead");
    }

    @Test
    void aRerunPutsTheLastStageOfTheClientsSegmentBackToPending() throws Exception {
        Scheduler scheduler = withSegmentZeroDone();

        scheduler.rerun(0);

        assertTrue(scheduler.isNeeded(new JobKey(0, 1)), "the re-run unit");
        assertFalse(scheduler.isNeeded(new JobKey(0, 0)), "the stage under it stays done");
        assertEquals(new Launch(new JobKey(0, 1), ONE_DIAL), scheduler.awaitNextJob(), "the re-run comes first");
        CompletableFuture<Boolean> output = inBackground(() -> ready(scheduler, 0));
        assertStillWaiting(output, "awaitOutput(0) while its last stage runs again");
    }

    @Test
    void aUnitIsNeededUntilAHigherStageOfItsSegmentIsDone() throws Exception {
        Scheduler scheduler = new Scheduler(PLAN, LOOKAHEAD);
        Launch first = scheduler.awaitNextJob();
        assertTrue(scheduler.isNeeded(new JobKey(0, 0)));
        assertTrue(scheduler.isNeeded(new JobKey(0, 1)));

        scheduler.jobEnded(first.key(), true, ONE_DIAL);

        assertFalse(scheduler.isNeeded(new JobKey(0, 0)), "covered by the done stage 1");
        assertFalse(scheduler.isNeeded(new JobKey(0, 1)), "done");
        assertTrue(scheduler.isNeeded(new JobKey(1, 0)));
        assertTrue(scheduler.isNeeded(new JobKey(LOOKAHEAD, 0)), "the first segment past the look-ahead");
        assertTrue(scheduler.isNeeded(new JobKey(9, 1)), "far past the look-ahead");
    }

    @Test
    void aJobAsksWithoutTheLockAndGetsTheBoardsAnswer() throws Exception {
        Scheduler scheduler = new Scheduler(PLAN, LOOKAHEAD);
        Launch top = scheduler.awaitNextJob();
        assertEquals(new JobKey(0, 1), top.key(), "the highest stage of the lowest segment first");
        assertTrue(scheduler.isNeededByItsJob(new JobKey(0, 0)));
        assertTrue(scheduler.isNeededByItsJob(new JobKey(0, 1)));
        Launch lower = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 0), lower.key(), "segment 1 waits for segment 0's stage 0: its stage 0 runs");
        assertTrue(scheduler.isNeededByItsJob(lower.key()));
        scheduler.jobEnded(top.key(), true, ONE_DIAL);

        assertFalse(scheduler.isNeededByItsJob(new JobKey(0, 0)), "a lower stage covered by a DONE stage above it");
        assertTrue(scheduler.isNeededByItsJob(lower.key()), "segment 1's stage 0: nothing above it is DONE");
        Launch above = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 1), above.key(), "segment 0 done: segment 1's last stage may run");
        scheduler.jobEnded(above.key(), true, ONE_DIAL);
        assertFalse(scheduler.isNeededByItsJob(lower.key()), "covered by segment 1's last stage, DONE");
        assertTrue(scheduler.isNeededByItsJob(new JobKey(2, 1)), "the next segment's last stage");
        assertTrue(scheduler.isNeededByItsJob(new JobKey(9, 1)), "far past the look-ahead");
        scheduler.delivered(0);
        assertFalse(scheduler.isNeededByItsJob(new JobKey(0, 1)), "the last stage of a delivered segment");
        assertFalse(scheduler.isNeededByItsJob(new JobKey(0, 0)),
                "a lower stage of a delivered segment, whose slot the board has cleared for segment " + LOOKAHEAD);
        assertTrue(scheduler.isNeededByItsJob(new JobKey(1, 1)), "the client's segment now");
    }

    @Test
    void aJobOfTheLastStageHearsAStopOrAFailureWithoutTheLock() throws Exception {
        Scheduler stopped = new Scheduler(PLAN, LOOKAHEAD);
        stopped.stop();
        assertFalse(stopped.isNeededByItsJob(new JobKey(0, 1)), "after stop");
        assertFalse(stopped.isNeededByItsJob(new JobKey(0, 0)), "after stop, a lower stage");

        Scheduler failed = new Scheduler(PLAN, LOOKAHEAD);
        failed.awaitNextJob();
        failed.jobFailed();
        assertFalse(failed.isNeededByItsJob(new JobKey(1, 1)), "after a job failed the request");
        assertFalse(failed.isNeededByItsJob(new JobKey(1, 0)), "after a job failed the request, a lower stage");
    }

    @Test
    void stopReleasesTheOwnerAndTheWalkerAndAnswersNoForGood() throws Exception {
        Scheduler scheduler = new Scheduler(PLAN, LOOKAHEAD);
        CompletableFuture<Launch> owner = ownerWaitingForAFreeWorker(scheduler);
        CompletableFuture<Scheduler.OutputWait> walker = inBackground(() -> outputWait(scheduler, 0));
        assertStillWaiting(walker, "the walker before segment 0 is done");

        scheduler.stop();

        assertNull(result(owner, "the owner after stop"));
        assertEquals(Scheduler.OutputWait.STOPPED, result(walker, "the walker after stop"));
        scheduler.jobEnded(new JobKey(0, 1), true, ONE_DIAL);
        assertEquals(Scheduler.OutputWait.STOPPED, outputWait(scheduler, 0),
                "awaitOutput after stop, segment 0's output done");
        assertNull(scheduler.awaitNextJob(), "awaitNextJob after stop, a worker free");
    }

    @Test
    void noJobIsHandedOutOnceEverySegmentIsDelivered() throws Exception {
        RequestPlan plan = new RequestPlan(0, 2, 1, 1);
        Scheduler scheduler = new Scheduler(plan, 2);
        for (long segment = 0; segment < 2; segment++) {
            Launch launch = scheduler.awaitNextJob();
            assertEquals(new JobKey(segment, 0), launch.key());
            scheduler.jobEnded(launch.key(), true, ONE_DIAL);
            assertTrue(ready(scheduler, segment));
            scheduler.delivered(segment);
        }

        assertNull(scheduler.awaitNextJob());
        assertEquals(0, scheduler.alive());
    }

    @Test
    void aFailedJobReleasesTheOwnerWaitingForAFreeWorker() throws Exception {
        Scheduler scheduler = new Scheduler(PLAN, LOOKAHEAD);
        CompletableFuture<Launch> owner = ownerWaitingForAFreeWorker(scheduler);

        scheduler.jobFailed(); // a worker is free, but the request is failing: nothing more is handed out

        assertNull(result(owner, "the owner after a job failed"));
        assertEquals(1, scheduler.alive());
        assertNull(scheduler.awaitNextJob(), "awaitNextJob after a job failed, a worker free");
    }

    @Test
    void theWalkerSaysWhichStageOfTheClientsSegmentItWaitsFor() throws Exception {
        RequestPlan threeStages = new RequestPlan(0, 2, 3, 2);
        Scheduler scheduler = new Scheduler(threeStages, 2);
        assertEquals("segment 0 waiting for stage 2", scheduler.waitingFor(), "nothing launched: its last stage");
        Launch first = scheduler.awaitNextJob();
        assertEquals(new JobKey(0, 2), first.key());
        Launch second = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 0), second.key());
        scheduler.jobEnded(second.key(), true, ONE_DIAL);
        assertEquals("segment 0 waiting for stage 2", scheduler.waitingFor(), "segment 1's progress is not segment 0's");
        scheduler.jobEnded(first.key(), true, ONE_DIAL);
        assertTrue(ready(scheduler, 0));
        scheduler.delivered(0);
        assertEquals("segment 1 waiting for stage 2", scheduler.waitingFor(), "its stage 0 done, nothing in flight");
        Launch third = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 2), third.key());
        scheduler.jobEnded(third.key(), true, ONE_DIAL);
        assertTrue(ready(scheduler, 1));
        scheduler.delivered(1);
        assertEquals("every segment delivered", scheduler.waitingFor());
    }

    @Test
    void aDeadlineThatHasJustArrivedHasPassedEvenWithTheOutputReady() throws Exception {
        Scheduler scheduler = withSegmentZeroDone();
        AtomicLong now = new AtomicLong(1_000);
        Deadline deadline = Deadline.after(Duration.ofSeconds(2), now::get);
        now.addAndGet(Duration.ofSeconds(2).toNanos()); // not one nanosecond left

        assertEquals(Scheduler.OutputWait.DEADLINE_PASSED, scheduler.awaitOutput(0, deadline));
        now.addAndGet(-1); // one nanosecond left: the output is ready in time
        assertEquals(Scheduler.OutputWait.READY, scheduler.awaitOutput(0, deadline));
    }

    @Test
    void theWalkerWaitsForItsOutputOnlyUntilTheDeadline() throws Exception {
        Scheduler scheduler = new Scheduler(PLAN, LOOKAHEAD);
        CompletableFuture<Scheduler.OutputWait> output =
                inBackground(() -> scheduler.awaitOutput(0, Deadline.after(Duration.ofMillis(50))));
        assertEquals(Scheduler.OutputWait.DEADLINE_PASSED, result(output, "awaitOutput(0) with a deadline of 50 ms"));
    }
}
