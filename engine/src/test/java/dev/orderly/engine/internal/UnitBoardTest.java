package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler's unit states, driven without threads: a simulated pool of workers finishing jobs in a random
 * (seeded) order, and a client that reads each segment as soon as it is done.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnitBoardTest {

    /** Drives a board to the end; checks every rule on the way against a model of every DONE unit. */
    private static final class Drive {
        final RequestPlan plan;
        final long lookahead;
        final UnitBoard board;
        final SplittableRandom random;
        final boolean checkAgainstModel;
        final List<JobKey> running = new ArrayList<>();
        /** Segment to highest DONE stage, for the segments at or past the client's; only when checking. */
        final Map<Long, Integer> highestDone = new HashMap<>();
        long launches;
        long maxTracked;
        int reruns;

        /** With resume: the chance that a segment is found in the store; negative for no resume. */
        final double storedChance;
        /** With resume: every segment below this was looked up. */
        long checkedEnd;
        long stored;

        Drive(RequestPlan plan, long lookahead, long seed, boolean checkAgainstModel) {
            this(plan, lookahead, seed, checkAgainstModel, -1);
        }

        Drive(RequestPlan plan, long lookahead, long seed, boolean checkAgainstModel, double storedChance) {
            this.plan = plan;
            this.lookahead = lookahead;
            this.storedChance = storedChance;
            this.board = new UnitBoard(plan, lookahead, storedChance >= 0, null);
            this.random = new SplittableRandom(seed);
            this.checkAgainstModel = checkAgainstModel;
            this.checkedEnd = storedChance >= 0 ? plan.startSegment() : plan.endSegment();
        }

        void run(double rerunChance) {
            while (!board.finished()) {
                long toCheck = board.segmentToCheck();
                if (toCheck >= 0 && random.nextBoolean()) {
                    assertEquals(checkedEnd, toCheck, "segments are looked up in order");
                    boolean found = random.nextDouble() < storedChance;
                    board.checked(toCheck, found);
                    checkedEnd++;
                    if (found) {
                        stored++;
                        highestDone.put(toCheck, plan.lastStage());
                    }
                    continue;
                }
                JobKey next = running.size() < plan.workers() ? board.next() : null;
                if (next != null) {
                    launch(next);
                } else if (board.readingOutputDone()) {
                    if (reruns < 3 && random.nextDouble() < rerunChance) {
                        reruns++;
                        board.rerun();
                        highestDone.put(board.reading(), plan.lastStage() - 1);
                    } else {
                        reruns = 0;
                        highestDone.remove(board.reading());
                        board.delivered();
                    }
                } else if (!running.isEmpty() || toCheck >= 0) {
                    if (running.isEmpty()) {
                        continue;
                    }
                    JobKey done = running.remove(random.nextInt(running.size()));
                    board.done(done, new UnitCounts(1, 0, 0));
                    if (checkAgainstModel && done.segment() >= board.reading()) {
                        highestDone.merge(done.segment(), done.stage(), Math::max);
                    }
                } else {
                    fail("stuck at segment " + board.reading() + ": nothing running, nothing to launch");
                }
                maxTracked = Math.max(maxTracked, board.trackedSegments());
                if (checkAgainstModel && !board.windowInvariantsHold()) {
                    fail("invariants broken: " + board);
                }
                if (checkAgainstModel) {
                    checkWhatRunningJobsReadWithoutTheLock();
                }
            }
        }

        /**
         * A running job of a segment the client has not read sees, in its slot, the highest DONE stage of its own
         * segment, and so the board's answer to whether it is still needed.
         */
        private void checkWhatRunningJobsReadWithoutTheLock() {
            for (JobKey r : running) {
                if (r.segment() < board.reading()) {
                    continue;
                }
                int doneStage = board.doneStageOfItsJob(r.segment());
                assertEquals(highestDone.getOrDefault(r.segment(), -1), doneStage, r + " reads its segment's slot");
                assertEquals(board.isNeeded(r), doneStage < r.stage(), r + " is needed as the board says");
            }
        }

        private void launch(JobKey key) {
            long reading = board.reading();
            if (key.segment() < reading || key.segment() >= reading + lookahead) {
                fail(key + " launched outside the look-ahead [" + reading + ", " + (reading + lookahead) + ")");
            }
            if (key.segment() >= checkedEnd) {
                fail(key + " launched before its segment was looked up in the store (looked up below " + checkedEnd
                        + ")");
            }
            if (checkAgainstModel) {
                for (long s = reading; s < key.segment(); s++) {
                    if (highestDone.getOrDefault(s, -1) < key.stage() - 1) {
                        fail(key + " launched while segment " + s + " had stages done only up to "
                                + highestDone.getOrDefault(s, -1));
                    }
                }
                if (highestDone.getOrDefault(key.segment(), -1) >= key.stage()) {
                    fail(key + " launched although it is done");
                }
                for (JobKey r : running) {
                    if (r.segment() == key.segment() && r.stage() >= key.stage()) {
                        fail(key + " launched while " + r + " covers it");
                    }
                }
            }
            board.scheduled(key);
            running.add(key);
            launches++;
        }
    }

    @Test
    void withResumeNoSegmentLaunchesBeforeItIsLookedUpAndNoStoredSegmentLaunchesAtAll() {
        long stored = 0;
        for (long seed = 1; seed <= 40; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            long start = r.nextLong(0, 100);
            RequestPlan plan = new RequestPlan(start, start + r.nextInt(1, 300), r.nextInt(1, 5), r.nextInt(1, 10));
            long lookahead = r.nextInt(1, 25);
            Drive drive = new Drive(plan, lookahead, seed, true, r.nextDouble());
            drive.run(0.05);
            assertTrue(drive.maxTracked <= lookahead, "seed " + seed);
            assertEquals(plan.endSegment(), drive.checkedEnd, "seed " + seed + ": every segment looked up once");
            stored += drive.stored;
        }
        assertTrue(stored > 100, "segments found in the store: " + stored);
    }

    @Test
    void everyLaunchRespectsTheDependenciesTheLookaheadAndShadowing() {
        for (long seed = 1; seed <= 40; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            long start = r.nextLong(0, 100);
            RequestPlan plan = new RequestPlan(start, start + r.nextInt(1, 400), r.nextInt(1, 5), r.nextInt(1, 10));
            long lookahead = r.nextInt(1, 25);
            Drive drive = new Drive(plan, lookahead, seed, true);
            drive.run(0.05);
            assertTrue(drive.launches >= plan.segmentCount(), "seed " + seed);
            assertTrue(drive.maxTracked <= lookahead, "seed " + seed);
        }
    }

    @Test
    void oneWorkerLaunchesOnlyTheLastStageOfEachSegment() {
        RequestPlan plan = new RequestPlan(5, 10, 3, 1);
        UnitBoard board = new UnitBoard(plan, 4);
        for (long s = 5; s < 10; s++) {
            JobKey key = board.next();
            assertEquals(new JobKey(s, 2), key);
            board.scheduled(key);
            JobKey other = board.next();
            assertTrue(other == null || other.segment() > s, "a second job of the same segment: " + other);
            board.done(key, new UnitCounts(1, 0, 0));
            board.delivered();
        }
        assertTrue(board.finished());
    }

    @Test
    void theLookaheadStopsLaunchesUntilTheClientReads() {
        RequestPlan plan = new RequestPlan(0, 100, 1, 50);
        UnitBoard board = new UnitBoard(plan, 6);
        List<JobKey> launched = new ArrayList<>();
        JobKey key;
        while ((key = board.next()) != null) {
            board.scheduled(key);
            launched.add(key);
        }
        assertEquals(6, launched.size());
        assertEquals(new JobKey(5, 0), launched.get(5));
        launched.forEach(k -> board.done(k, new UnitCounts(1, 0, 0)));
        board.delivered();
        assertEquals(new JobKey(6, 0), board.next());
    }

    @Test
    void aRerunLaunchesTheClientsLastStageAgainFirst() {
        RequestPlan plan = new RequestPlan(0, 10, 2, 4);
        UnitBoard board = new UnitBoard(plan, 8);
        JobKey first = board.next();
        assertEquals(new JobKey(0, 1), first);
        board.scheduled(first);
        board.done(first, new UnitCounts(3, 0, 0));
        JobKey second = board.next();
        board.scheduled(second);
        board.rerun();
        assertEquals(first, board.next());
        assertEquals(3, board.prior(first).dials());
    }

    /**
     * The retained state is the look-ahead window: over ten million segments the board never keeps more than the
     * look-ahead, and the whole run takes seconds (each launch costs O(stages), never a scan from segment 0).
     */
    @Test
    void tenMillionSegmentsKeepStateForTheLookaheadOnly() {
        RequestPlan plan = new RequestPlan(0, 10_000_000, 3, 16);
        long lookahead = Scheduler.lookahead(2.0, plan.workers());
        Drive drive = new Drive(plan, lookahead, 42, false);
        drive.run(0.0);
        assertTrue(drive.board.finished());
        assertEquals(32, lookahead);
        assertEquals(lookahead, drive.maxTracked);
        assertTrue(drive.launches >= plan.segmentCount());
    }

    @org.junit.jupiter.api.Test
    void aBoardUsedWithoutItsLockFailsItsAssertion() {
        java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
        UnitBoard board = new UnitBoard(new dev.orderly.api.RequestPlan(0, 10, 2, 2), 4, false, lock);
        org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, board::next);
        lock.lock();
        try {
            org.junit.jupiter.api.Assertions.assertEquals(new dev.orderly.api.JobKey(0, 1), board.next());
            org.junit.jupiter.api.Assertions.assertTrue(board.invariantsHold());
        } finally {
            lock.unlock();
        }
    }
}
