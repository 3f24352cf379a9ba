package dev.orderly.grpc.room;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.grpc.room.WaitingRoom.Seat;
import dev.orderly.grpc.room.WaitingRoom.State;
import org.junit.jupiter.api.Test;

/**
 * Regression: when a full room's worst waiter was its tenant's only one and that tenant's own better dial displaced
 * it, the tenant left the turns (its last waiter gone) and joined again at the back, as a newcomer, behind tenants
 * that began waiting after it: round robin among equals was broken. A tenant that never stopped waiting keeps its
 * place. (The randomized model the room is checked against did the same, so it could not see it.)
 */
class ATenantThatDisplacesItsOwnWaiterKeepsItsTurnTest {

    @Test
    void aTenantDisplacingItsOwnWaiterKeepsItsPlaceInTheTurns() {
        WaitingRoom<String> room = new WaitingRoom<>(1, 2);
        Seat<String> running = room.arrive("x", "X", 0, 0, false).seat();
        assertEquals(State.ADMITTED, running.state());
        Seat<String> a5 = room.arrive("A#5", "A", 5, 0, true).seat(); // A waits first
        room.arrive("B#3", "B", 3, 0, true); // then B; the room is full
        WaitingRoom.Arrival<String> a0 = room.arrive("A#0", "A", 0, 0, true); // A's better dial displaces A#5
        assertEquals(State.WAITING, a0.seat().state());
        assertEquals(a5, a0.displaced().orElseThrow());
        assertEquals(State.REFUSED, a5.state());
        assertEquals(1, room.waiting("A"));

        // A and B each run nothing here: round robin, and A has waited since before B.
        assertEquals("A#0", room.free(running).orElseThrow().payload());
    }
}
