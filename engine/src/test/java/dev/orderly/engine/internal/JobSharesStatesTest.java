package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the rule of the engine-wide job cap decides in the states its edges meet: the first waiter (wait number 0), a
 * seat whose only permit is a handed one, a closed or granted seat that releases wanting another, and the text the
 * rule prints into logs and assertion messages.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JobSharesStatesTest {

    @Test
    void aSeatPrintsWhatItHoldsAndWhetherItIsGrantedWaitingOrClosed() {
        JobShares shares = new JobShares(1, null);
        JobShares.Seat holder = shares.join("holder");
        JobShares.Seat first = shares.join("first");
        assertEquals("holder[held 0]", holder.toString());
        assertTrue(shares.take(holder));
        assertEquals("holder[held 1]", holder.toString());
        assertFalse(shares.take(first), "the first to wait gets wait number 0");
        assertEquals("first[held 0, waiting]", first.toString());
        assertEquals("JobShares[alive 1 of 1, waiting [first[held 0, waiting]]]", shares.toString());
        assertSame(first, shares.release(holder));
        assertEquals("first[held 1, granted]", first.toString());
        assertEquals("JobShares[alive 1 of 1, waiting []]", shares.toString());
        assertTrue(shares.take(first));
        shares.close(first);
        assertEquals("first[held 1, closed]", first.toString());
    }

    @Test
    void theFirstWaiterIsSeenWaitingInTheShares() {
        JobShares shares = new JobShares(1, null);
        JobShares.Seat holder = shares.join("holder");
        JobShares.Seat first = shares.join("first");
        assertTrue(shares.take(holder));
        assertFalse(shares.take(first));
        assertEquals(Map.of("holder", new JobShares.Share(1, false), "first", new JobShares.Share(0, true)),
                shares.shares());
    }

    @Test
    void aSeatWhoseOnlyPermitIsAHandedOneCanNotReleaseAJobsPermitAndTheMessageNamesIt() {
        JobShares shares = new JobShares(1, null);
        JobShares.Seat holder = shares.join("holder");
        JobShares.Seat next = shares.join("next");
        assertTrue(shares.take(holder));
        assertFalse(shares.take(next));
        assertSame(next, shares.release(holder));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> shares.release(next));
        assertEquals("next[held 1, granted] released a permit it does not hold", e.getMessage());
        assertEquals(1, shares.alive(), "the handed permit is still next's");
        assertTrue(shares.granted(next));
    }

    @Test
    void takeSaysNoToAClosedSeatEvenWithAPermitFree() {
        JobShares shares = new JobShares(2, null);
        JobShares.Seat closed = shares.join("closed");
        assertFalse(shares.isClosed(closed));
        shares.close(closed);
        assertTrue(shares.isClosed(closed));
        assertFalse(shares.take(closed), "closed, though both permits are free");
        assertEquals(0, shares.alive());
        assertFalse(shares.isWaiting(closed));
        assertFalse(shares.wouldWait(closed), "a permit is free");
    }

    @Test
    void aHandedPermitIsTakenWithoutCountingItTwice() {
        JobShares shares = new JobShares(1, null);
        JobShares.Seat holder = shares.join("holder");
        JobShares.Seat next = shares.join("next");
        assertTrue(shares.take(holder));
        assertFalse(shares.take(next));
        assertTrue(shares.wouldWait(next));
        assertSame(next, shares.release(holder));
        assertFalse(shares.wouldWait(next), "a permit is handed to it, though none is free");
        assertTrue(shares.wouldWait(holder), "none free and none handed to holder");
        assertTrue(shares.take(next));
        assertEquals(1, shares.held(next));
        assertEquals(1, shares.alive());
        assertFalse(shares.take(next), "the handed permit was taken once; now it waits");
        assertTrue(shares.isWaiting(next));
    }

    @Test
    void aFreePermitIsCountedForTheSeatThatTakesIt() {
        JobShares shares = new JobShares(3, null);
        assertEquals(3, shares.limit());
        JobShares.Seat seat = shares.join("seat");
        assertFalse(shares.wouldWait(seat));
        assertTrue(shares.take(seat));
        assertEquals(1, shares.held(seat));
        assertEquals(1, shares.alive());
        assertFalse(shares.isWaiting(seat));
        assertEquals(0, shares.waiting());
    }

    @Test
    void aSeatThatReleasesWantingAnotherWaitsFromThatMomentUnlessItIsGrantedOrClosed() {
        JobShares shares = new JobShares(1, null);
        JobShares.Seat ending = shares.join("ending");
        JobShares.Seat other = shares.join("other");
        assertTrue(shares.take(ending));
        assertFalse(shares.take(other));
        assertSame(other, shares.release(ending, true), "other waited before ending asked again");
        assertTrue(shares.isWaiting(ending), "ending wants another: it waits from its release on");
        assertEquals(1, shares.waiting());

        JobShares plain = new JobShares(1, null);
        JobShares.Seat done = plain.join("done");
        assertTrue(plain.take(done));
        assertNull(plain.release(done, false));
        assertFalse(plain.isWaiting(done), "without wantsAnother it does not wait");

        JobShares closing = new JobShares(1, null);
        JobShares.Seat stopped = closing.join("stopped");
        assertTrue(closing.take(stopped));
        closing.close(stopped);
        assertNull(closing.release(stopped, true));
        assertFalse(closing.isWaiting(stopped), "a closed seat never waits");
        assertEquals(Map.of(), closing.shares(), "a closed seat that holds nothing leaves");
    }

    @Test
    void aGrantedSeatThatReleasesWantingAnotherDoesNotWaitForASecond() {
        JobShares shares = new JobShares(2, null);
        JobShares.Seat seat = shares.join("seat");
        JobShares.Seat other = shares.join("other");
        assertTrue(shares.take(seat));
        assertTrue(shares.take(other));
        assertFalse(shares.take(seat));
        assertSame(seat, shares.release(other));
        assertTrue(shares.granted(seat));
        assertNull(shares.release(seat, true), "nobody waits; the freed permit lies free");
        assertFalse(shares.isWaiting(seat), "it has a handed permit for its next unit already");
        assertEquals(1, shares.alive());
    }

    @Test
    void theFirstWaiterKeepingAPermitLeavesTheWaiting() {
        JobShares shares = new JobShares(2, null);
        JobShares.Seat rerun = shares.join("rerun");
        JobShares.Seat other = shares.join("other");
        assertTrue(shares.take(rerun));
        assertTrue(shares.take(other));
        assertFalse(shares.take(rerun), "rerun waits first (wait number 0)");
        assertFalse(shares.take(other));
        assertNull(shares.keep(rerun));
        assertFalse(shares.isWaiting(rerun));
        assertTrue(shares.granted(rerun));
        assertEquals(1, shares.waiting(), "only other waits");
    }

    @Test
    void keepingASecondPermitReleasesItToTheRequestWhoseTurnItIs() {
        JobShares shares = new JobShares(2, null);
        JobShares.Seat rerun = shares.join("rerun");
        JobShares.Seat other = shares.join("other");
        JobShares.Seat late = shares.join("late");
        assertTrue(shares.take(rerun));
        assertTrue(shares.take(other));
        assertFalse(shares.take(rerun));
        assertSame(rerun, shares.release(other));
        assertFalse(shares.take(late));
        assertSame(late, shares.keep(rerun), "rerun has a handed permit already: this one goes on");
        assertEquals(1, shares.held(rerun));
        assertTrue(shares.granted(late));
    }

    @Test
    void aClosedSeatKeepingAPermitReleasesIt() {
        JobShares shares = new JobShares(1, null);
        JobShares.Seat stopped = shares.join("stopped");
        JobShares.Seat next = shares.join("next");
        assertTrue(shares.take(stopped));
        assertFalse(shares.take(next));
        shares.close(stopped);
        assertSame(next, shares.keep(stopped), "a stopped request re-runs nothing");
        assertEquals(0, shares.held(stopped));
    }

    @Test
    void closingASeatWithAHandedPermitPassesItOnToTheNextWaiter() {
        JobShares shares = new JobShares(1, null);
        JobShares.Seat holder = shares.join("holder");
        JobShares.Seat stopped = shares.join("stopped");
        JobShares.Seat next = shares.join("next");
        assertTrue(shares.take(holder));
        assertFalse(shares.take(stopped));
        assertFalse(shares.take(next));
        assertSame(stopped, shares.release(holder));
        assertSame(next, shares.close(stopped), "stopped never used it: next gets it");
        assertEquals(Map.of("holder", new JobShares.Share(0, false), "next", new JobShares.Share(1, false)),
                shares.shares(), "stopped holds nothing and left");
    }

    @Test
    void everyCallChecksThatItsCallerHoldsTheGuard() {
        ReentrantLock guard = new ReentrantLock();
        JobShares shares = new JobShares(1, guard);
        assertThrows(AssertionError.class, () -> shares.join("unguarded"));
        guard.lock();
        try {
            JobShares.Seat seat = shares.join("guarded");
            assertTrue(shares.take(seat));
        } finally {
            guard.unlock();
        }
        assertThrows(AssertionError.class, shares::alive);
    }
}
