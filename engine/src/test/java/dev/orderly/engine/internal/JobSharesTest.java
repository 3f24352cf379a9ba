package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The rule of the engine-wide job cap, driven without threads: who holds what, and who gets a freed permit. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JobSharesTest {

    @Test
    void aFreePermitIsTakenAtOnceAndNobodyWaitsWhileOneIsFree() {
        JobShares shares = new JobShares(2, null);
        JobShares.Seat a = shares.join("a");
        assertTrue(shares.take(a));
        assertTrue(shares.take(a));
        assertEquals(2, shares.alive());
        assertEquals(0, shares.waiting());
        assertFalse(shares.take(a), "the cap is reached");
        assertTrue(shares.isWaiting(a));
        assertFalse(shares.take(a), "asking again does not queue twice");
        assertEquals(1, shares.waiting());
        assertEquals(2, shares.alive());
    }

    @Test
    void aFreedPermitGoesToTheWaitingRequestWithTheFewestNotToTheOneThatAskedFirst() {
        JobShares shares = new JobShares(4, null);
        JobShares.Seat wide = shares.join("wide");
        JobShares.Seat narrow = shares.join("narrow");
        for (int i = 0; i < 3; i++) {
            assertTrue(shares.take(wide));
        }
        assertTrue(shares.take(narrow));
        assertFalse(shares.take(wide), "wide asks first");
        assertFalse(shares.take(narrow));
        assertSame(narrow, shares.release(wide), "narrow holds 1, wide 2 after its release: narrow's turn");
        assertTrue(shares.granted(narrow));
        assertEquals(2, shares.held(narrow));
        assertTrue(shares.take(narrow), "the handed permit is taken for narrow's next job");
        assertFalse(shares.granted(narrow));
        assertEquals(4, shares.alive());
        assertTrue(shares.isWaiting(wide));
    }

    @Test
    void aRequestWithNoAliveJobIsServedBeforeEveryRequestThatHasOneEvenIfItAskedLast() {
        JobShares shares = new JobShares(3, null);
        JobShares.Seat a = shares.join("a");
        JobShares.Seat b = shares.join("b");
        JobShares.Seat late = shares.join("late");
        assertTrue(shares.take(a));
        assertTrue(shares.take(a));
        assertTrue(shares.take(b));
        assertFalse(shares.take(b));
        assertFalse(shares.take(a));
        assertFalse(shares.take(late), "late has nothing and asks last");
        assertSame(late, shares.release(a), "late (0 alive) before b and a (1 alive each), which asked first");
        assertSame(a, shares.release(a), "a, now at 0, before b (1 alive), which asked before it");
        assertEquals(List.of(1, 1, 1), List.of(shares.held(a), shares.held(b), shares.held(late)));
    }

    @Test
    void amongEqualsTheRequestThatHasWaitedLongestGoesFirst() {
        JobShares shares = new JobShares(1, null);
        JobShares.Seat holder = shares.join("holder");
        JobShares.Seat first = shares.join("first");
        JobShares.Seat second = shares.join("second");
        assertTrue(shares.take(holder));
        assertFalse(shares.take(second));
        assertFalse(shares.take(first));
        assertSame(second, shares.release(holder), "second asked before first");
    }

    @Test
    void aWithdrawnRequestLeavesTheWaitingAndAPermitHandedToItGoesOn() {
        JobShares shares = new JobShares(1, null);
        JobShares.Seat holder = shares.join("holder");
        JobShares.Seat gone = shares.join("gone");
        JobShares.Seat next = shares.join("next");
        assertTrue(shares.take(holder));
        assertFalse(shares.take(gone));
        assertFalse(shares.take(next));
        assertSame(gone, shares.release(holder));
        assertSame(next, shares.withdraw(gone), "gone did not use it: next gets it");
        assertEquals(0, shares.held(gone));
        assertEquals(1, shares.alive());
        assertNull(shares.withdraw(gone), "withdrawing twice changes nothing");
        assertEquals(0, shares.waiting());
    }

    @Test
    void aClosedRequestLeavesAtOnceSaysNoToEveryTakeAndItsJobsStillReleaseTheirs() {
        JobShares shares = new JobShares(2, null);
        JobShares.Seat closing = shares.join("closing");
        JobShares.Seat other = shares.join("other");
        assertTrue(shares.take(closing));
        assertTrue(shares.take(closing));
        assertFalse(shares.take(closing));
        assertFalse(shares.take(other));
        assertNull(shares.close(closing), "nothing was handed to it");
        assertEquals(1, shares.waiting(), "closing left the waiting; other still waits");
        assertFalse(shares.isWaiting(closing));
        assertFalse(shares.take(closing), "closed");
        assertFalse(shares.isWaiting(closing), "a closed request never waits");
        assertSame(other, shares.release(closing), "its alive job ends: other's turn");
        assertSame(null, shares.release(closing));
        assertEquals(1, shares.alive());
        assertThrows(IllegalStateException.class, () -> shares.release(closing));
    }

    @Test
    void aPermitKeptForTheClientsReRunStaysWithItsRequest() {
        JobShares shares = new JobShares(2, null);
        JobShares.Seat rerun = shares.join("rerun");
        JobShares.Seat other = shares.join("other");
        assertTrue(shares.take(rerun));
        assertTrue(shares.take(other));
        assertFalse(shares.take(other));
        assertFalse(shares.take(rerun));
        assertTrue(shares.wouldWait(rerun));
        assertNull(shares.keep(rerun), "the withdrawn job's permit is handed to its own request");
        assertTrue(shares.granted(rerun));
        assertFalse(shares.isWaiting(rerun));
        assertTrue(shares.take(rerun));
        assertEquals(1, shares.held(rerun));
        assertTrue(shares.isWaiting(other), "other still waits: the count of rerun did not change");
    }

    /**
     * Eight greedy requests of different widths on a cap of 32, jobs ending in a random (seeded) order: never more
     * than 32 permits, and after each hand-over every request holds within one job of its max-min fair share (of
     * that share rounded down or up, since jobs are whole: 4.4 allows 3 to 6).
     */
    @Test
    void randomEndsNeverPassTheCapAndEveryRequestStaysWithinOneOfItsFairShare() {
        int cap = 32;
        int[] widths = {2, 4, 8, 16, 32, 64, 8, 4};
        double[] fair = FairShare.of(cap, widths);
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            JobShares shares = new JobShares(cap, null);
            List<JobShares.Seat> seats = new ArrayList<>();
            int[] alive = new int[widths.length];
            for (int i = 0; i < widths.length; i++) {
                seats.add(shares.join("r" + i));
            }
            // Each request asks, in turn, for as many jobs as its width allows (the owners racing for free permits).
            for (int round = 0; round < 64; round++) {
                for (int i = 0; i < widths.length; i++) {
                    if (alive[i] < widths[i] && shares.take(seats.get(i))) {
                        alive[i]++;
                    }
                }
            }
            for (int step = 0; step < 5_000; step++) {
                int i = random.nextInt(widths.length);
                if (alive[i] == 0) {
                    continue;
                }
                alive[i]--;
                JobShares.Seat handedTo = shares.release(seats.get(i));
                // The owner that was handed a permit takes it for its next job, and asks again while it may.
                if (handedTo != null) {
                    int j = seats.indexOf(handedTo);
                    assertTrue(shares.take(handedTo));
                    alive[j]++;
                    if (alive[j] < widths[j]) {
                        assertFalse(shares.take(handedTo));
                    }
                }
                // The request whose job ended asks for its next one (a free permit, or it waits).
                if (alive[i] < widths[i] && shares.take(seats.get(i))) {
                    alive[i]++;
                }
                int sum = 0;
                for (int k = 0; k < widths.length; k++) {
                    sum += shares.held(seats.get(k));
                    assertEquals(alive[k], shares.held(seats.get(k)), "seed " + seed + " request " + k);
                }
                assertTrue(sum <= cap, "seed " + seed + ": " + sum + " alive");
                if (step > 200) {
                    for (int k = 0; k < widths.length; k++) {
                        assertTrue(alive[k] >= Math.floor(fair[k]) - 1 && alive[k] <= Math.ceil(fair[k]) + 1,
                                "seed " + seed + " step " + step
                                + ": request " + k + " (width " + widths[k] + ") holds " + alive[k] + ", fair "
                                + fair[k]);
                    }
                }
            }
        }
    }

    @Test
    void theFairShareIsMaxMin() {
        assertEquals(List.of(2.0, 4.0, 4.4, 4.4, 4.4, 4.4, 4.4, 4.0),
                java.util.Arrays.stream(FairShare.of(32, new int[] {2, 4, 8, 16, 32, 64, 8, 4}))
                        .map(x -> Math.round(x * 1000) / 1000.0).boxed().toList());
        assertEquals(List.of(3.0, 5.0), java.util.Arrays.stream(FairShare.of(32, new int[] {3, 5})).boxed().toList());
    }
}
