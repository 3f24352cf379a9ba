package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchBook.Entry;
import dev.orderly.engine.LaunchBook.Turn;
import dev.orderly.engine.LaunchBook.Wait;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The launch queue's rules, one by one, on the book alone: no threads, no waits, no Awaitility. Time is a number the
 * test passes in; a "waiting thread" is an entry the test marks as waited for and asks for its turn, and a wake-up is
 * the key the book names to its waker. Read side by side with the stress module's {@code QueueModel} (the reference
 * model the real queue is checked against under threads): each test here is one of the rules that model states.
 */
class LaunchBookTest {

    private static final long DELAY = 100;

    private final List<JobKey> woken = new ArrayList<>();
    private long now = 1_000;
    private LaunchBook book = windowOf(2);

    private LaunchBook windowOf(int window) {
        return new LaunchBook(window, entry -> woken.add(entry.key), null);
    }

    private static JobKey key(long segment) {
        return new JobKey(segment, 0);
    }

    /** The job of {@code key} is queued, refused {@code DELAY} ago: ready now, nobody waiting for it. */
    private void queuedReady(JobKey key) {
        book.requeue(key, now, true, now);
    }

    /** A thread calls {@code awaitTurn(key)} on a queued key and does what the book says. */
    private Turn waits(JobKey key) {
        Entry entry = book.entry(key);
        book.waitFor(entry);
        Turn turn = book.turn(entry, false, now);
        if (turn == Turn.DIAL) {
            book.doneWaiting(entry);
        }
        return turn;
    }

    /** The thread of {@code key}, woken, looks again. */
    private Turn looksAgain(JobKey key) {
        Entry entry = book.entry(key);
        book.awake(entry);
        Turn turn = book.turn(entry, true, now);
        if (turn == Turn.DIAL) {
            book.doneWaiting(entry);
        }
        return turn;
    }

    @AfterEach
    void invariantsHoldAfterEveryRule() {
        assertTrue(book.invariantsHold(now));
    }

    // ---- order and window (QueueModel: queued in launch order, the window is the first `window` of them)

    @Test
    void queuedJobsAreKeptInLaunchOrderLowestSegmentThenHighestStage() {
        book.requeue(new JobKey(3, 0), now, true, now);
        book.requeue(new JobKey(1, 0), now, true, now);
        book.requeue(new JobKey(1, 2), now, false, now);
        book.requeue(new JobKey(2, 1), now, true, now);
        assertEquals(List.of(new JobKey(1, 2), new JobKey(1, 0), new JobKey(2, 1), new JobKey(3, 0)), book.order());
    }

    @Test
    void aJobOutsideTheWindowParksUntimedEvenWhenReadyAndASlotIsFree() {
        queuedReady(key(0));
        queuedReady(key(1));
        queuedReady(key(2));
        assertEquals(Turn.PARKED_OUTSIDE_THE_WINDOW, waits(key(2)));
        assertEquals(0, book.dialing(), "a job outside the window sends nothing");
    }

    @Test
    void aJobInTheWindowWaitsOutItsNotBeforeTimeThenDials() {
        book.requeue(key(0), now + DELAY, true, now);
        assertEquals(Turn.TIMED, waits(key(0)));
        now += DELAY;
        assertEquals(Turn.DIAL, looksAgain(key(0)));
        assertTrue(book.isDialing(key(0)));
    }

    @Test
    void theWindowIsNeverSmallerThanOne() {
        assertThrows(IllegalArgumentException.class, () -> windowOf(0));
    }

    // ---- no queue, no wait (QueueModel.turn: a job not queued passes when nothing is queued, or ahead with a slot)

    @Test
    void withNothingQueuedEveryJobPassesWithoutJoiningAndWithoutABound() {
        for (int segment = 0; segment < 5; segment++) {
            assertTrue(book.passes(key(segment)));
        }
        assertEquals(0, book.size());
        assertEquals(5, book.dialing(), "with nothing queued the fleet has room: no bound");
    }

    @Test
    void aJobAheadOfEverythingQueuedPassesOnlyWhileADialSlotIsFree() {
        queuedReady(key(5));
        assertTrue(book.passes(key(0)));
        assertTrue(book.passes(key(1)));
        assertFalse(book.passes(key(2)), "both dial slots are taken");
        assertEquals(2, book.dialing());
    }

    @Test
    void aJobBehindTheHeadJoinsEvenWithASlotFree() {
        queuedReady(key(0));
        assertFalse(book.passes(key(1)));
        book.join(key(1), now, now);
        assertEquals(List.of(key(0), key(1)), book.order());
    }

    // ---- dial slots (QueueModel: at most `window` jobs hold a slot while anything is queued)

    @Test
    void aReadyJobInTheWindowParksWhenEveryDialSlotIsTaken() {
        queuedReady(key(5));
        book.passes(key(0));
        book.passes(key(1));
        assertEquals(Turn.PARKED, waits(key(5)));
    }

    @Test
    void aJobThatReportsBackGivesItsSlotToTheFirstReadyParkedJobAndNoOther() {
        queuedReady(key(5));
        queuedReady(key(6));
        book.passes(key(0));
        book.passes(key(1));
        assertEquals(Turn.PARKED, waits(key(5)));
        assertEquals(Turn.PARKED, waits(key(6)));

        book.leave(key(0), now); // admitted: its dial slot frees up
        assertEquals(List.of(key(5)), woken, "one slot freed, so one job woken: the one closest to the head");
        assertEquals(Turn.DIAL, looksAgain(key(5)));
    }

    @Test
    void aWokenJobLooksAgainAndParksWhenAJobWhoseTimerEndedTookTheSlotFirst() {
        queuedReady(key(5));
        book.requeue(key(6), now + DELAY, true, now);
        book.passes(key(0));
        book.passes(key(1));
        assertEquals(Turn.PARKED, waits(key(5)));
        assertEquals(Turn.TIMED, waits(key(6)));

        book.leave(key(0), now);
        assertEquals(List.of(key(5)), woken, "the one free slot wakes the ready job, not the timed one");
        now += DELAY;
        assertEquals(Turn.DIAL, looksAgain(key(6)), "its timer ended before (5) ran");
        assertEquals(Turn.PARKED, looksAgain(key(5)), "woken for a slot that is gone: it parks again");
        assertEquals(2, book.dialing());
    }

    // ---- leave (QueueModel.leave: gone, idempotent; a waiting call returns; the window moves up by one)

    @Test
    void aLeaveInTheWindowWakesOnlyTheJobThatEntersIt() {
        book = windowOf(1);
        queuedReady(key(0));
        book.requeue(key(1), now + DELAY, true, now);
        queuedReady(key(2));
        assertEquals(Turn.PARKED_OUTSIDE_THE_WINDOW, waits(key(1)));
        assertEquals(Turn.PARKED_OUTSIDE_THE_WINDOW, waits(key(2)));

        book.leave(key(0), now);
        assertEquals(List.of(key(1)), woken, "the job behind the window stays asleep");
        assertEquals(Turn.TIMED, looksAgain(key(1)), "in the window now, it waits out its own delay");
    }

    @Test
    void leaveIsIdempotent() {
        assertTrue(book.passes(key(0)));
        book.leave(key(0), now);
        assertFalse(book.holds(key(0)));
        book.leave(key(0), now);
        assertEquals(0, book.dialing());
        assertEquals(0, book.size());
        assertEquals(List.of(), woken);
    }

    @Test
    void theLeaveOfAWaitingJobsOwnKeyWakesItToReturnHoldingNothing() {
        // A covered job: a higher stage of its segment is done, so the engine makes it leave while it waits.
        queuedReady(key(0));
        queuedReady(key(1));
        queuedReady(key(2));
        waits(key(2));
        book.leave(key(2), now);
        assertEquals(List.of(key(2)), woken);
        assertEquals(null, book.entry(key(2)), "its thread finds its entry gone and returns");
        assertFalse(book.isDialing(key(2)));
    }

    @Test
    void anInterruptedWaiterThatWasWokenPassesItsWakeUpOn() {
        queuedReady(key(5));
        queuedReady(key(6));
        book.passes(key(0));
        book.passes(key(1));
        waits(key(5));
        waits(key(6));
        book.leave(key(0), now);
        assertEquals(List.of(key(5)), woken);
        woken.clear();
        // (5)'s thread is interrupted before it runs: the job is removed, and the slot goes to (6).
        Entry five = book.entry(key(5));
        book.remove(five, now);
        book.doneWaiting(five);
        assertEquals(List.of(key(6)), woken);
        assertEquals(List.of(key(6)), book.order());
    }

    @Test
    void aJobWokenForTheOneFreeSlotCountsAgainstItUntilItRuns() {
        queuedReady(key(5));
        queuedReady(key(6));
        queuedReady(key(9));
        book.passes(key(0));
        book.passes(key(1));
        waits(key(5));
        waits(key(6));
        assertEquals(Turn.PARKED_OUTSIDE_THE_WINDOW, waits(key(9)));
        book.leave(key(0), now);
        assertEquals(List.of(key(5)), woken);
        // (9), behind the window, is interrupted before (5) runs: a look for whoever may move, with the one free slot
        // still promised to (5). Woken too, (6) could take it first and dial ahead of (5).
        Entry nine = book.entry(key(9));
        book.remove(nine, now);
        book.doneWaiting(nine);
        assertEquals(List.of(key(5)), woken, "one free slot, and the job woken for it has not run yet");
        assertEquals(Turn.DIAL, looksAgain(key(5)));
        assertEquals(Turn.PARKED, waits(key(6)));
    }

    // ---- refused and failed (QueueModel.refused / failed: keep or take a place, give back the slot)

    @Test
    void aRefusedJobGivesBackItsSlotAndKeepsItsPlaceWithANewNotBeforeTime() {
        queuedReady(key(0));
        assertEquals(Turn.DIAL, waits(key(0)));
        assertFalse(book.requeue(key(0), now + DELAY, true, now), "it was queued: it keeps its place");
        assertFalse(book.isDialing(key(0)));
        assertEquals(now + DELAY, book.entry(key(0)).notBeforeNanos);
    }

    @Test
    void aRefusedJobThatCameThroughTheNoQueuePathTakesItsPlace() {
        assertTrue(book.passes(key(3)));
        assertTrue(book.requeue(key(3), now + DELAY, true, now), "it joined");
        assertEquals(List.of(key(3)), book.order());
        assertEquals(0, book.dialing());
    }

    @Test
    void aFailedJobInTheWindowHoldsItsWindowPlaceWhileItWaitsOutItsDelay() {
        book.requeue(key(0), now + DELAY, false, now);
        book.requeue(key(1), now + DELAY, false, now);
        queuedReady(key(2));
        assertEquals(Turn.PARKED_OUTSIDE_THE_WINDOW, waits(key(2)), "two failed jobs fill the window of two");
    }

    // ---- slotFreed (a job of the request ended on a tier2: the window's first refused job may dial now)

    @Test
    void slotFreedEndsTheRefusedDelayOfTheWindowsFirstRefusedJobOnly() {
        book.requeue(key(0), now + DELAY, true, now);
        book.requeue(key(1), now + DELAY, true, now);
        assertTrue(book.slotFreed(now));
        assertEquals(now, book.entry(key(0)).notBeforeNanos);
        assertEquals(now + DELAY, book.entry(key(1)).notBeforeNanos, "one slot freed, one job let go");
    }

    @Test
    void slotFreedLeavesAFailureDelay() {
        book.requeue(key(0), now + DELAY, false, now);
        assertFalse(book.slotFreed(now));
        assertEquals(now + DELAY, book.entry(key(0)).notBeforeNanos);
    }

    @Test
    void slotFreedSkipsAJobWhoseDelayIsOverAndTakesTheNextThatStillWaits() {
        book.requeue(key(0), now, true, now);
        book.requeue(key(1), now + DELAY, true, now);
        assertTrue(book.slotFreed(now));
        assertEquals(now, book.entry(key(1)).notBeforeNanos);
    }

    @Test
    void slotFreedNeverReachesPastTheWindow() {
        book.requeue(key(0), now + DELAY, false, now);
        book.requeue(key(1), now + DELAY, false, now);
        book.requeue(key(2), now + DELAY, true, now);
        assertFalse(book.slotFreed(now));
        assertEquals(now + DELAY, book.entry(key(2)).notBeforeNanos);
    }

    @Test
    void slotFreedWakesATimedWaiterAndNobodyElse() {
        book.requeue(key(0), now + DELAY, true, now);
        assertEquals(Turn.TIMED, waits(key(0)));
        assertTrue(book.slotFreed(now));
        assertEquals(List.of(key(0)), woken);
        assertEquals(Turn.DIAL, looksAgain(key(0)));
    }

    @Test
    void slotFreedWithNoRefusedJobChangesNothing() {
        assertFalse(book.slotFreed(now));
        assertEquals(List.of(), woken);
    }

    // ---- the timer never wakes a job outside the window (a join in front pushes a timed waiter out, once)

    @Test
    void aJoinInFrontPushesATimedWaiterOutOfTheWindowWithOneWakeUp() {
        queuedReady(key(4));
        book.requeue(key(5), now + DELAY, true, now);
        assertEquals(Turn.TIMED, waits(key(5)));

        book.join(key(0), now, now);
        assertEquals(List.of(key(5)), woken, "the timed waiter is told once");
        assertTrue(book.entry(key(5)).pushedOut);
        assertEquals(Turn.PARKED_OUTSIDE_THE_WINDOW, looksAgain(key(5)), "and parks untimed");
        assertFalse(book.entry(key(5)).pushedOut);
    }

    @Test
    void aJoinBehindTheWindowWakesNobody() {
        queuedReady(key(0));
        book.requeue(key(1), now + DELAY, true, now);
        assertEquals(Turn.TIMED, waits(key(1)));
        book.join(key(7), now, now);
        assertEquals(List.of(), woken);
    }

    @Test
    void aBookGuardedByALockTheCallerDoesNotHoldRefusesToDecide() {
        java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
        LaunchBook guarded = new LaunchBook(2, entry -> { }, lock);
        // The tests run with -ea: the book asserts that its monitor's lock is held.
        assertThrows(AssertionError.class, () -> guarded.passes(key(0)));
        lock.lock();
        try {
            assertTrue(guarded.passes(key(0)), "with the lock held, nothing queued: it dials at once");
        } finally {
            lock.unlock();
        }
    }

    @Test
    void aJobAheadOfTheQueueDialsAtOnceOnlyWhileADialSlotIsFree() {
        queuedReady(key(9));
        assertTrue(book.passes(key(0)), "ahead of every queued job, a slot free: it dials without joining");
        assertTrue(book.passes(key(1)));
        assertFalse(book.passes(key(2)), "both dial slots are taken: it must join, even ahead of the queue");
        assertEquals(List.of(key(9)), book.order());
    }
}
