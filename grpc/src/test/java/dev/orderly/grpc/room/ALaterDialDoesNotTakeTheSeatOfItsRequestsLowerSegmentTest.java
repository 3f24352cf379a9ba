package dev.orderly.grpc.room;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.grpc.room.WaitingRoom.Arrival;
import dev.orderly.grpc.room.WaitingRoom.Seat;
import dev.orderly.grpc.room.WaitingRoom.State;
import org.junit.jupiter.api.Test;

/**
 * Regression: a full room lets a better-ranked dial take the worst waiter's seat, ranked by rank, which is as old as
 * each dial. A request's dial for segment 12 made with its client on segment 9 (rank 3) took the seat of its own older
 * dial for segment 10 (made at rank 5, the client then on segment 5), which the client reads first: that one was
 * refused and dialed again after the refused delay, while the room held a later segment in its place.
 */
class ALaterDialDoesNotTakeTheSeatOfItsRequestsLowerSegmentTest {

    @Test
    void aRequestsLaterSegmentDoesNotDisplaceItsLowerOne() {
        WaitingRoom<String> room = new WaitingRoom<>(1, 2);
        Seat<String> running = room.arrive("h0", "h", 0, 0, 0, false).seat();
        assertEquals(State.ADMITTED, running.state());
        Seat<String> ten = room.arrive("a10", "a", 10, 5, 0, true).seat();
        Seat<String> other = room.arrive("b1", "b", 1, 1, 0, true).seat();
        assertEquals(State.WAITING, ten.state());
        assertEquals(State.WAITING, other.state());

        Arrival<String> twelve = room.arrive("a12", "a", 12, 3, 0, true);

        assertEquals(State.REFUSED, twelve.seat().state(), "the later segment of the request is the one refused");
        assertTrue(twelve.displaced().isEmpty());
        assertEquals(State.WAITING, ten.state(), "segment 10, which the client reads first, keeps its seat");
        assertEquals("a10", room.free(running).orElseThrow().payload(), "tenant a's turn: its lowest segment");
    }

    @Test
    void anotherTenantsBetterDialStillTakesTheWorstSeat() {
        WaitingRoom<String> room = new WaitingRoom<>(1, 2);
        room.arrive("h0", "h", 0, 0, 0, false);
        Seat<String> ten = room.arrive("a10", "a", 10, 5, 0, true).seat();
        room.arrive("b1", "b", 1, 1, 0, true);

        Arrival<String> c = room.arrive("c3", "c", 3, 3, 0, true);

        assertEquals(State.WAITING, c.seat().state());
        assertEquals(ten, c.displaced().orElseThrow());
        assertEquals(State.REFUSED, ten.state());
    }
}
