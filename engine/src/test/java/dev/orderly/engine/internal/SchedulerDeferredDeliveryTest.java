package dev.orderly.engine.internal;

import static dev.orderly.engine.internal.SchedulerTest.inBackground;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A delivery the walker makes takes no lock while the board trails the client by at most a sixteenth of the
 * look-ahead: it is left for the next thread to take the scheduler's lock, which applies it first. Past that bound,
 * for the last segment, or while the owner waits to launch, the delivery takes the lock. Where a test needs the lock
 * held, a job's end holds it for as long as the test likes, blocked inside the engine-wide cap's {@code release}
 * (called under the lock).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class SchedulerDeferredDeliveryTest {

    private static final UnitCounts ONE_DIAL = new UnitCounts(1, 0, 0);

    private final HeldPermits permits = new HeldPermits();

    @AfterEach
    void releaseTheLock() {
        permits.release.countDown();
    }

    /** Permits that never run out; a job's end blocks in {@code release} once {@link #held} is armed. */
    private static final class HeldPermits implements JobPermits {
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean held;

        @Override
        public boolean take() {
            return true;
        }

        @Override
        public void awaitPermit() {
        }

        @Override
        public void withdraw() {
        }

        @Override
        public void release(boolean wantsAnother) {
            if (held) {
                holding.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void keep() {
        }

        @Override
        public boolean wouldWait() {
            return false;
        }

        @Override
        public void close() {
        }
    }

    /**
     * A scheduler of {@code segments} one-stage segments, 2 workers and a look-ahead of {@code lookahead}, whose
     * first {@code ready} segments have their outputs ready, and a job of the next one whose end holds the lock.
     */
    private Scheduler holdingTheLock(long segments, long lookahead, int ready) throws Exception {
        return holdingTheLock(segments, lookahead, ready, 0);
    }

    /** As above, after the first {@code delivered} of the ready segments were delivered with the lock free. */
    private Scheduler holdingTheLock(long segments, long lookahead, int ready, int delivered) throws Exception {
        Scheduler scheduler = new Scheduler(new RequestPlan(0, segments, 1, 2), lookahead, false, permits);
        for (int i = 0; i < ready; i++) {
            Launch launch = scheduler.awaitNextJob();
            scheduler.jobEnded(launch.key(), true, ONE_DIAL);
        }
        for (int segment = 0; segment < delivered; segment++) {
            deliver(scheduler, segment).get(5, TimeUnit.SECONDS);
        }
        assertEquals(delivered, scheduler.boardReading(), "the deliveries made with the lock free");
        Launch holder = scheduler.awaitNextJob();
        permits.held = true;
        inBackground(() -> {
            scheduler.jobEnded(holder.key(), true, ONE_DIAL);
            return null;
        });
        assertEquals(true, permits.holding.await(5, TimeUnit.SECONDS), "the job's end never took the lock");
        return scheduler;
    }

    /**
     * 40 one-stage segments, 4 workers and a look-ahead of 32 (the board may trail the client by 2 segments): segments
     * 0 to 3 handed out, and the jobs of the first {@code done} of them succeeded.
     */
    private static Scheduler withFourOut(int done) throws InterruptedException {
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 40, 1, 4), 32);
        assertEquals(4, scheduler.awaitNextJobs(new JobKey[4], new UnitCounts[4]));
        for (int segment = 0; segment < done; segment++) {
            scheduler.jobEnded(new JobKey(segment, 0), true, ONE_DIAL);
        }
        return scheduler;
    }

    /**
     * 40 one-stage segments, a look-ahead of {@code lookahead} and more workers than that: the window, not the
     * workers, holds the owner back once its {@code lookahead} units were handed out, and their jobs all succeeded.
     */
    private static Scheduler withTheWindowFull(int lookahead) throws InterruptedException {
        return withTheWindowLaunched(lookahead, lookahead);
    }

    /**
     * 40 one-stage segments, a look-ahead of {@code lookahead} and more workers than that: every unit of the window
     * handed out, and the jobs of its first {@code done} segments succeeded (the rest still run).
     */
    private static Scheduler withTheWindowLaunched(int lookahead, int done) throws InterruptedException {
        int workers = lookahead + 8;
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 40, 1, workers), lookahead);
        assertEquals(lookahead, scheduler.awaitNextJobs(new JobKey[workers], new UnitCounts[workers]));
        for (int segment = 0; segment < done; segment++) {
            scheduler.jobEnded(new JobKey(segment, 0), true, ONE_DIAL);
        }
        return scheduler;
    }

    /** The walker's delivery of {@code segment}, on a thread of its own. */
    private static CompletableFuture<Void> deliver(Scheduler scheduler, long segment) {
        return inBackground(() -> {
            assertEquals(Scheduler.OutputWait.READY, scheduler.awaitOutput(segment, Deadline.after(null)));
            scheduler.delivered(segment);
            return null;
        });
    }

    private static void assertDoneWithoutTheLock(CompletableFuture<Void> call, String what) throws Exception {
        try {
            call.get(5, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(what + " waited for the lock", e);
        }
    }

    /**
     * The delivery of {@code segment} waits while the job's end holds the lock, returns once it releases it, and the
     * board is then up to {@code boardReading}.
     */
    private void assertWaitsForTheLock(Scheduler scheduler, long segment, long boardReading, String what)
            throws Exception {
        CompletableFuture<Void> delivery = deliver(scheduler, segment);
        assertStillWaiting(delivery, what);
        permits.release.countDown();
        delivery.get(5, TimeUnit.SECONDS);
        assertEquals(boardReading, scheduler.boardReading());
    }

    private static void assertStillWaiting(CompletableFuture<?> call, String what) {
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                .untilAsserted(() -> assertFalse(call.isDone(), what + " returned while the lock was held"));
    }

    @Test
    void aDeliveryWithinTheBoundTakesNoLockAndIsAppliedByTheNextThreadToTakeIt() throws Exception {
        // Look-ahead 32: the board may trail the client by 2 segments. The job's end holds the lock throughout.
        Scheduler scheduler = holdingTheLock(40, 32, 2);

        assertDoneWithoutTheLock(deliver(scheduler, 0), "the delivery of segment 0");
        assertDoneWithoutTheLock(deliver(scheduler, 1), "the delivery of segment 1");
        assertEquals(2, scheduler.reading(), "the client's segment");
        assertEquals(0, scheduler.boardReading(), "the board, while the job holds the lock");

        permits.release.countDown();
        assertEquals("segment 2 ready, the client still on segment 1", scheduler.waitingFor());
        assertEquals(2, scheduler.boardReading(), "the board, once a thread took the lock");
    }

    /** A thread that takes the scheduler's lock, by what it does there. */
    @FunctionalInterface
    private interface LockTaker {
        void takeTheLock(Scheduler scheduler) throws Exception;
    }

    static Stream<Named<LockTaker>> lockTakers() {
        return Stream.of(
                Named.of("a job's end", s -> s.jobEnded(new JobKey(2, 0), true, ONE_DIAL)),
                Named.of("a job's failure", Scheduler::jobFailed),
                Named.of("units not forked", s -> s.notForked(1)),
                Named.of("a job withdrawn", s -> s.jobWithdrawn(new JobKey(3, 0), UnitCounts.NONE)),
                Named.of("the owner's next launch", Scheduler::awaitNextJob),
                Named.of("the walker's wait past its deadline",
                        s -> assertEquals(Scheduler.OutputWait.DEADLINE_PASSED,
                                s.awaitOutput(1, Deadline.after(Duration.ZERO)))),
                Named.of("a re-run", s -> s.rerun(1)),
                Named.of("successfulJobsOf", s -> s.successfulJobsOf(1)),
                Named.of("isNeeded", s -> s.isNeeded(new JobKey(3, 0))),
                Named.of("stop", Scheduler::stop),
                Named.of("waitingFor",
                        s -> assertEquals("segment 1 ready, the client still on segment 0", s.waitingFor())),
                Named.of("segmentToCheck",
                        s -> assertEquals(-1, s.segmentToCheck(), "without resume, nothing to check")),
                Named.of("trackedSegments", Scheduler::trackedSegments),
                Named.of("alive", Scheduler::alive),
                Named.of("every thread's end", Scheduler::everyThreadEnded));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lockTakers")
    void everyThreadThatTakesTheLockAppliesTheDeliveriesLeftBehindFirst(LockTaker taker) throws Exception {
        // Segments 0 and 1 done, 0 delivered.
        Scheduler scheduler = withFourOut(2);
        deliver(scheduler, 0).get(5, TimeUnit.SECONDS);
        assertEquals(0, scheduler.boardReading(), "the board, before any thread took the lock");

        taker.takeTheLock(scheduler);

        assertEquals(1, scheduler.boardReading(), "the board, once a thread took the lock");
        // And released it: another thread takes it at once.
        assertDoneWithoutTheLock(inBackground(() -> {
            scheduler.alive();
            return null;
        }), "a thread after it");
    }

    @Test
    void withResumeTheWalkersLookUpAppliesTheDeliveriesLeftBehindFirst() throws Exception {
        // With resume every segment of the window is looked up before its units may launch. Segment 31, the last of
        // the window, is named but not yet looked up when segments 0 and 1 are done and 0 is delivered.
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 40, 1, 4), 32, true);
        for (long segment = 0; segment < 32; segment++) {
            assertEquals(segment, scheduler.segmentToCheck());
            if (segment < 31) {
                scheduler.checked(segment, false);
            }
        }
        assertEquals(4, scheduler.awaitNextJobs(new JobKey[4], new UnitCounts[4]));
        scheduler.jobEnded(new JobKey(0, 0), true, ONE_DIAL);
        scheduler.jobEnded(new JobKey(1, 0), true, ONE_DIAL);
        deliver(scheduler, 0).get(5, TimeUnit.SECONDS);
        assertEquals(0, scheduler.boardReading(), "the board, before any thread took the lock");

        scheduler.checked(31, false);

        assertEquals(1, scheduler.boardReading(), "the board, once the look-up's report took the lock");
    }

    @Test
    void theOwnerAppliesADeliveryLeftBehindBeforeItLooksAtAFullWindow() throws Exception {
        Scheduler scheduler = withTheWindowFull(32);
        deliver(scheduler, 0).get(5, TimeUnit.SECONDS);
        assertEquals(0, scheduler.boardReading(), "the delivery, left behind");

        CompletableFuture<Launch> owner = inBackground(scheduler::awaitNextJob);
        assertEquals(32, owner.get(5, TimeUnit.SECONDS).key().segment(), "the unit the delivery let in");
        assertEquals(1, scheduler.boardReading());
    }

    @Test
    void pastTheBoundADeliveryWithTheLockFreeAppliesEveryDeliveryLeftBehind() throws Exception {
        Scheduler scheduler = withFourOut(3);
        deliver(scheduler, 0).get(5, TimeUnit.SECONDS);
        deliver(scheduler, 1).get(5, TimeUnit.SECONDS);
        assertEquals(0, scheduler.boardReading(), "two deliveries, within the bound of 2");

        deliver(scheduler, 2).get(5, TimeUnit.SECONDS);
        assertEquals(3, scheduler.boardReading(), "the third, past it");
    }

    @Test
    void theBoardTrailsTheClientByAtMostASixteenthOfTheLookahead() throws Exception {
        Scheduler scheduler = holdingTheLock(40, 32, 3);
        assertDoneWithoutTheLock(deliver(scheduler, 0), "the delivery of segment 0");
        assertDoneWithoutTheLock(deliver(scheduler, 1), "the delivery of segment 1");

        assertWaitsForTheLock(scheduler, 2, 3, "the delivery that would put the board 3 segments behind");
    }

    @Test
    void theBoundCountsFromTheBoardsReadingNotFromTheFirstSegment() throws Exception {
        // Look-ahead 32 (the board may trail by 2), segments 0 to 2 delivered with the lock free: 3 and 4 may wait.
        Scheduler scheduler = holdingTheLock(40, 32, 5, 3);

        assertDoneWithoutTheLock(deliver(scheduler, 3), "the delivery of segment 3");
        assertDoneWithoutTheLock(deliver(scheduler, 4), "the delivery of segment 4");
        assertEquals(3, scheduler.boardReading(), "the board, while the job holds the lock");

        permits.release.countDown();
        assertEquals(0, scheduler.alive(), "the jobs alive, once the job's end released the lock");
        assertEquals(5, scheduler.boardReading(), "the board, once a thread took the lock");
    }

    @Test
    void aDeliveryBeforeTheOutputIsReadyFailsAndLeavesTheClientWhereItWas() {
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 40, 1, 2), 32);

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> scheduler.delivered(0));
        assertEquals("segment 0 delivered before its last stage was done", e.getMessage());
        assertEquals(0, scheduler.reading(), "the client's segment");
        assertEquals(0, scheduler.boardReading(), "the board's");
    }

    @Test
    void theLastSegmentsDeliveryWaitsForTheLock() throws Exception {
        // Two segments of two stages: both outputs ready, and the late end of the covered (1, 0) holds the lock.
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 2, 2, 2), 32, false, permits);
        Launch top0 = scheduler.awaitNextJob();
        Launch covered = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 0), covered.key());
        scheduler.jobEnded(top0.key(), true, ONE_DIAL);
        Launch top1 = scheduler.awaitNextJob();
        assertEquals(new JobKey(1, 1), top1.key());
        scheduler.jobEnded(top1.key(), true, ONE_DIAL);
        permits.held = true;
        inBackground(() -> {
            scheduler.jobEnded(covered.key(), false, ONE_DIAL);
            return null;
        });
        assertEquals(true, permits.holding.await(5, TimeUnit.SECONDS), "the job's end never took the lock");

        assertDoneWithoutTheLock(deliver(scheduler, 0), "the delivery of segment 0");
        assertWaitsForTheLock(scheduler, 1, 2, "the delivery of the last segment");
        assertEquals("every segment delivered", scheduler.waitingFor());
    }

    @Test
    void withALookaheadUnder16EveryDeliveryWaitsForTheLock() throws Exception {
        Scheduler scheduler = holdingTheLock(40, 15, 1);

        assertWaitsForTheLock(scheduler, 0, 1, "the delivery with a look-ahead of 15");
    }

    /** The owner's call of {@code awaitNextJobs}, on a thread of its own: the thread, and the segments handed out. */
    private record OwnerCall(Thread thread, CompletableFuture<List<Long>> segments) {
    }

    /** The owner asks for as many units as it has workers. */
    private static OwnerCall ownerAsking(Scheduler scheduler) {
        CompletableFuture<List<Long>> segments = new CompletableFuture<>();
        Thread thread = Thread.ofVirtual().name("scheduler-test-owner").start(() -> {
            try {
                int workers = scheduler.workers();
                JobKey[] keys = new JobKey[workers];
                int handedOut = scheduler.awaitNextJobs(keys, new UnitCounts[workers]);
                segments.complete(Arrays.stream(keys, 0, handedOut).map(JobKey::segment).toList());
            } catch (Throwable t) {
                segments.completeExceptionally(t);
            }
        });
        return new OwnerCall(thread, segments);
    }

    /** The owner has not returned, and it waits parked, not looping: its thread stays WAITING. */
    private static void assertOwnerWaits(OwnerCall owner, String what) {
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).untilAsserted(() -> {
            assertFalse(owner.segments().isDone(), what + " returned");
            assertEquals(Thread.State.WAITING, owner.thread().getState(), what + ", its thread");
        });
    }

    /**
     * The owner, waiting on the full window, while the client reads segments 0 and 1: it still waits, the two
     * deliveries left behind. (Delivered before the owner waits, they would move the window before it looks.)
     */
    private static OwnerCall waitingWithTwoDeliveriesLeftBehind(Scheduler scheduler) throws Exception {
        OwnerCall owner = ownerAsking(scheduler);
        assertOwnerWaits(owner, "the owner with the window full");
        deliver(scheduler, 0).get(5, TimeUnit.SECONDS);
        deliver(scheduler, 1).get(5, TimeUnit.SECONDS);
        assertOwnerWaits(owner, "the owner with 2 of the window's 16 segments read");
        return owner;
    }

    /** The owner was handed {@code segments}, and the board reads {@code boardReading}. */
    private static void assertHandedOutWithTheBoardAt(OwnerCall owner, List<Long> segments, Scheduler scheduler,
            long boardReading) throws Exception {
        assertEquals(segments, owner.segments().get(5, TimeUnit.SECONDS), "the units the deliveries let in");
        assertEquals(boardReading, scheduler.boardReading(), "the board");
    }

    @Test
    void anOwnerWaitingOnAFullWindowIsWokenByTheDeliveryThatLeavesAQuarterOfItBehind() throws Exception {
        Scheduler scheduler = withTheWindowFull(16);
        OwnerCall owner = ownerAsking(scheduler);
        assertOwnerWaits(owner, "the owner with the window full");

        for (int segment = 0; segment < 3; segment++) {
            deliver(scheduler, segment).get(5, TimeUnit.SECONDS);
        }
        assertOwnerWaits(owner, "the owner with 3 of the window's 16 segments read");
        assertEquals(0, scheduler.boardReading(), "the board, with the 3 deliveries left behind");

        deliver(scheduler, 3).get(5, TimeUnit.SECONDS);
        assertHandedOutWithTheBoardAt(owner, List.of(16L, 17L, 18L, 19L), scheduler, 4);

        // And again from the board's new reading: the owner waits parked for the next quarter, not from segment 0.
        OwnerCall again = ownerAsking(scheduler);
        assertOwnerWaits(again, "the owner with the window full again");
        for (int segment = 4; segment < 7; segment++) {
            deliver(scheduler, segment).get(5, TimeUnit.SECONDS);
        }
        assertOwnerWaits(again, "the owner with 3 more of the window's segments read");
        deliver(scheduler, 7).get(5, TimeUnit.SECONDS);
        assertHandedOutWithTheBoardAt(again, List.of(20L, 21L, 22L, 23L), scheduler, 8);
    }

    @ParameterizedTest(name = "look-ahead {0}")
    @ValueSource(ints = {1, 3, 7})
    void withALookaheadUnder8EveryDeliveryWakesTheWaitingOwner(int lookahead) throws Exception {
        Scheduler scheduler = withTheWindowFull(lookahead);
        OwnerCall owner = ownerAsking(scheduler);
        assertOwnerWaits(owner, "the owner with the window full");

        deliver(scheduler, 0).get(5, TimeUnit.SECONDS);
        assertHandedOutWithTheBoardAt(owner, List.of((long) lookahead), scheduler, 1);
    }

    @Test
    void aJobsEndWakesTheWaitingOwnerWithTheDeliveriesLeftBehindApplied() throws Exception {
        // The window full of launched units, segment 15's job still running.
        Scheduler scheduler = withTheWindowLaunched(16, 15);
        OwnerCall owner = waitingWithTwoDeliveriesLeftBehind(scheduler);

        scheduler.jobEnded(new JobKey(15, 0), true, ONE_DIAL);
        assertHandedOutWithTheBoardAt(owner, List.of(16L, 17L), scheduler, 2);
    }

    @Test
    void aWalkerThatWaitsForAnOutputAppliesTheDeliveriesLeftBehindAndWakesTheOwner() throws Exception {
        // The window full of launched units, only segments 0 and 1 done.
        Scheduler scheduler = withTheWindowLaunched(16, 2);
        OwnerCall owner = waitingWithTwoDeliveriesLeftBehind(scheduler);

        CompletableFuture<Scheduler.OutputWait> walker =
                inBackground(() -> scheduler.awaitOutput(2, Deadline.after(null)));
        assertHandedOutWithTheBoardAt(owner, List.of(16L, 17L), scheduler, 2);
        assertStillWaiting(walker, "the walker, segment 2 still running");

        scheduler.jobEnded(new JobKey(2, 0), true, ONE_DIAL);
        assertEquals(Scheduler.OutputWait.READY, walker.get(5, TimeUnit.SECONDS));
    }
}
