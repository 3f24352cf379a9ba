package dev.orderly.grpc.room;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.grpc.room.WaitingRoom.Arrival;
import dev.orderly.grpc.room.WaitingRoom.Seat;
import dev.orderly.grpc.room.WaitingRoom.State;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WaitingRoomTest {

    /** The seats holding each room's slots, oldest first: {@link #freed} ends the oldest job. */
    private final Map<WaitingRoom<String>, ArrayDeque<Seat<String>>> holding = new IdentityHashMap<>();

    /** A room of {@code slots} slots, every one taken by a job of tenant "running". */
    private WaitingRoom<String> fullRoom(int slots, int capacity) {
        WaitingRoom<String> room = new WaitingRoom<>(slots, capacity);
        for (int i = 0; i < slots; i++) {
            admitted(room, room.arrive("running-" + i, "running", 0, 0, false));
        }
        return room;
    }

    private void admitted(WaitingRoom<String> room, Arrival<String> a) {
        assertEquals(State.ADMITTED, a.seat().state());
        holding.computeIfAbsent(room, r -> new ArrayDeque<>()).addLast(a.seat());
    }

    private Seat<String> waits(WaitingRoom<String> room, String tenant, long rank) {
        Arrival<String> a = room.arrive(tenant + "#" + rank, tenant, rank, 0, true);
        assertEquals(State.WAITING, a.seat().state(), "a dial that asks to wait at a full instance with room waits");
        return a.seat();
    }

    /** The oldest job of the room ends; says who got its slot. */
    private String freed(WaitingRoom<String> room) {
        Optional<Seat<String>> next = room.free(holding.get(room).removeFirst());
        next.ifPresent(s -> holding.get(room).addLast(s));
        return next.map(Seat::payload).orElse("nobody");
    }

    @Test
    void aDialThatFindsAFreeSlotIsAdmittedAtOnceWaitingOrNot() {
        WaitingRoom<String> room = new WaitingRoom<>(2, 4);
        admitted(room, room.arrive("a", "t", 5, 0, true));
        admitted(room, room.arrive("b", "t", 0, 0, false));
        assertEquals(2, room.inUse());
        assertEquals(0, room.waiting());
    }

    @Test
    void aFullInstanceRefusesADialThatDoesNotAskToWait() {
        WaitingRoom<String> room = fullRoom(1, 4);
        Arrival<String> a = room.arrive("old client", "t", 0, 0, false);
        assertEquals(State.REFUSED, a.seat().state());
        assertEquals(0, room.waiting());
    }

    @Test
    void aRoomOfCapacityZeroRefusesEveryDialAtAFullInstance() {
        WaitingRoom<String> room = fullRoom(1, 0);
        assertEquals(State.REFUSED, room.arrive("x", "t", 0, 0, true).seat().state());
        assertEquals("nobody", freed(room));
        assertEquals(0, room.inUse());
    }

    @Test
    void aFreedSlotGoesToTheLowestRankOfOneTenantEarliestFirstAmongEquals() {
        WaitingRoom<String> room = fullRoom(1, 10);
        waits(room, "a", 3);
        Seat<String> firstOne = waits(room, "a", 1);
        waits(room, "a", 1);
        waits(room, "a", 2);
        assertEquals("a#1", freed(room));
        assertEquals(State.ADMITTED, firstOne.state(), "the earlier of two equal ranks goes first");
        assertEquals("a#1", freed(room));
        assertEquals("a#2", freed(room));
        assertEquals("a#3", freed(room));
        assertEquals("nobody", freed(room));
        assertEquals(0, room.inUse());
    }

    @Test
    void tenantsThatRunAsManyHereTakeTurnsForFreedSlotsWhateverTheirRanks() {
        WaitingRoom<String> room = fullRoom(1, 10);
        waits(room, "a", 0);
        waits(room, "a", 1);
        waits(room, "a", 2);
        waits(room, "b", 7);
        waits(room, "b", 8);
        waits(room, "c", 9);
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            order.add(freed(room));
        }
        assertEquals(List.of("a#0", "b#7", "c#9", "a#1", "b#8", "a#2"), order);
    }

    @Test
    void aTenantThatArrivesLateJoinsTheBackOfTheTurns() {
        WaitingRoom<String> room = fullRoom(1, 10);
        waits(room, "a", 0);
        waits(room, "a", 1);
        waits(room, "b", 0);
        assertEquals("a#0", freed(room));
        waits(room, "c", 0);
        assertEquals("b#0", freed(room));
        assertEquals("a#1", freed(room));
        assertEquals("c#0", freed(room));
    }

    @Test
    void aWaiterWhoseWaitEndsLeavesAndTheNextFreedSlotGoesToTheNextWaiter() {
        WaitingRoom<String> room = fullRoom(1, 4);
        Seat<String> tired = waits(room, "a", 0);
        waits(room, "a", 1);
        assertTrue(room.leave(tired), "a waiting seat leaves");
        assertEquals(State.LEFT, tired.state());
        assertEquals(1, room.waiting());
        assertEquals(1, room.inUse(), "a waiter holds no slot: leaving frees none");
        assertEquals("a#1", freed(room));
    }

    @Test
    void aCancelledWaiterLeavesAtOnceAndItsTenantLosesItsTurnOnlyWhenNoneOfItsWaitersRemain() {
        WaitingRoom<String> room = fullRoom(1, 4);
        Seat<String> gone = waits(room, "a", 0);
        waits(room, "b", 0);
        assertTrue(room.leave(gone));
        assertEquals(0, room.waiting("a"));
        assertEquals("b#0", freed(room), "the tenant whose only waiter left is out of the turns");
        assertEquals("nobody", freed(room));
    }

    @Test
    void leavingIsIdempotentAndAnAdmittedSeatCanNotLeave() {
        WaitingRoom<String> room = fullRoom(1, 4);
        Seat<String> s = waits(room, "a", 0);
        assertEquals("a#0", freed(room));
        assertFalse(room.leave(s), "an admitted seat holds a slot: its owner must give it back with free");
        assertEquals(State.ADMITTED, s.state());
        assertEquals(1, room.inUse());
        Seat<String> t = waits(room, "a", 1);
        assertTrue(room.leave(t));
        assertFalse(room.leave(t));
        assertEquals(State.LEFT, t.state());
    }

    @Test
    void aFullRoomLetsABetterRankedDialDisplaceTheWorstWaiter() {
        WaitingRoom<String> room = fullRoom(1, 2);
        waits(room, "a", 2);
        Seat<String> worst = waits(room, "b", 5);
        Arrival<String> better = room.arrive("c#1", "c", 1, 0, true);
        assertEquals(State.WAITING, better.seat().state());
        assertSame(worst, better.displaced().orElseThrow());
        assertEquals(State.REFUSED, worst.state());
        assertEquals(2, room.waiting());
        assertEquals(0, room.waiting("b"));
    }

    @Test
    void amongEqualWorstRanksTheLatestArrivalIsDisplaced() {
        WaitingRoom<String> room = fullRoom(1, 2);
        Seat<String> early = waits(room, "a", 5);
        Seat<String> late = waits(room, "b", 5);
        Arrival<String> better = room.arrive("c#0", "c", 0, 0, true);
        assertSame(late, better.displaced().orElseThrow());
        assertEquals(State.WAITING, early.state());
    }

    @Test
    void aFullRoomRefusesADialRankedNoBetterThanTheWorstWaiter() {
        WaitingRoom<String> room = fullRoom(1, 2);
        waits(room, "a", 2);
        Seat<String> worst = waits(room, "b", 5);
        Arrival<String> same = room.arrive("c#5", "c", 5, 0, true);
        assertEquals(State.REFUSED, same.seat().state());
        assertTrue(same.displaced().isEmpty());
        assertEquals(State.WAITING, worst.state(), "first come keeps its seat among equals");
        assertTrue(room.full());
    }

    @Test
    void theRoomNeverAdmitsPastTheLimit() {
        WaitingRoom<String> room = fullRoom(3, 5);
        for (int i = 0; i < 5; i++) {
            waits(room, "t" + (i % 2), i);
        }
        assertEquals(3, room.inUse());
        for (int i = 0; i < 5; i++) {
            assertTrue(!"nobody".equals(freed(room)));
            assertEquals(3, room.inUse(), "a freed slot is handed over, not added");
        }
        Seat<String> last = holding.get(room).getLast();
        for (int i = 0; i < 3; i++) {
            assertEquals("nobody", freed(room));
        }
        assertEquals(0, room.inUse());
        assertEquals(State.ENDED, last.state());
        assertThrows(IllegalStateException.class, () -> room.free(last), "a slot can not be given back twice");
        Seat<String> refused = fullRoom(1, 0).arrive("r", "t", 0, 0, true).seat();
        assertThrows(IllegalArgumentException.class, () -> room.free(refused), "another room's seat");
    }

    @Test
    void aSeatThatNeverHeldASlotCanNotGiveOneBack() {
        WaitingRoom<String> room = fullRoom(1, 2);
        Seat<String> waiting = waits(room, "a", 0);
        assertThrows(IllegalStateException.class, () -> room.free(waiting));
        assertEquals(State.WAITING, waiting.state());
        assertEquals(1, room.inUse());
    }

    @Test
    void refuseAllEmptiesTheRoomAndKeepsTheSlots() {
        WaitingRoom<String> room = fullRoom(2, 5);
        Seat<String> a = waits(room, "a", 1);
        Seat<String> b = waits(room, "b", 0);
        assertEquals(List.of(b, a), room.refuseAll());
        assertEquals(State.REFUSED, a.state());
        assertEquals(0, room.waiting());
        assertEquals(2, room.inUse());
        assertEquals("nobody", freed(room));
    }

    @Test
    void badArgumentsAreNamed() {
        IllegalArgumentException slots = assertThrows(IllegalArgumentException.class, () -> new WaitingRoom<>(0, 1));
        assertEquals("slots must be >= 1, was 0", slots.getMessage());
        IllegalArgumentException cap = assertThrows(IllegalArgumentException.class, () -> new WaitingRoom<>(1, -1));
        assertEquals("waiting room capacity must be >= 0, was -1", cap.getMessage());
        WaitingRoom<String> room = new WaitingRoom<>(1, 1);
        IllegalArgumentException rank = assertThrows(IllegalArgumentException.class,
                () -> room.arrive("x", "t", -1, 0, true));
        assertEquals("rank must be >= 0, was -1", rank.getMessage());
        IllegalArgumentException stage = assertThrows(IllegalArgumentException.class,
                () -> room.arrive("x", "t", 0, -2, true));
        assertEquals("stage must be >= 0, was -2", stage.getMessage());
    }

    @Test
    void aSeatLeavesOnlyItsOwnRoom() {
        WaitingRoom<String> one = fullRoom(1, 2);
        WaitingRoom<String> other = fullRoom(1, 2);
        Seat<String> s = waits(one, "a", 0);
        waits(other, "a", 0);
        assertThrows(IllegalArgumentException.class, () -> other.leave(s));
        assertEquals(State.WAITING, s.state());
        assertEquals(1, other.waiting());
    }

    @Test
    void amongEqualRanksTheHigherStageGoesFirstAndIsTheBetterWhenTheRoomIsFull() {
        WaitingRoom<String> room = fullRoom(1, 2);
        Seat<String> low = room.arrive("a#4/0", "a", 4, 0, true).seat();
        room.arrive("a#4/2", "a", 4, 2, true);
        assertEquals("a#4/2", freed(room), "the higher stage's job also produces the partials under it");
        room.arrive("a#4/1", "a", 4, 1, true);
        Arrival<String> higher = room.arrive("b#4/3", "b", 4, 3, true);
        assertSame(low, higher.displaced().orElseThrow(), "the lowest stage of the worst rank is the worst waiter");
        assertEquals(State.REFUSED, room.arrive("c#4/1", "c", 4, 1, true).seat().state(),
                "no better than the worst (same rank and stage, later): refused");
    }

    @Test
    void aFreedSlotGoesFirstToTheWaitingTenantWithTheFewestJobsRunningHere() {
        WaitingRoom<String> room = new WaitingRoom<>(3, 10);
        admitted(room, room.arrive("a-run-1", "a", 0, 0, false));
        admitted(room, room.arrive("a-run-2", "a", 0, 0, false));
        admitted(room, room.arrive("b-run", "b", 0, 0, false));
        waits(room, "a", 0);
        waits(room, "b", 5);
        waits(room, "c", 9);
        assertEquals("c#9", freed(room), "c runs nothing here: first, though a is first in the turns");
        // The next two slots freed are a's and b's own: each then runs fewer here than the other waiting tenant.
        assertEquals("a#0", freed(room));
        assertEquals("b#5", freed(room));
    }
}
