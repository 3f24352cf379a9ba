package dev.orderly.grpc.room;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.grpc.room.WaitingRoom.Arrival;
import dev.orderly.grpc.room.WaitingRoom.Seat;
import dev.orderly.grpc.room.WaitingRoom.State;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random interleavings of arrivals, freed slots, waits that end and clients that go away (the events that race on a
 * real instance, serialised here in every order the owner's lock could put them), checked after every step against a
 * reference model written with plain lists and linear scans, and against the slot accounting: every slot given back
 * was held, no slot is held twice, never more than the limit, no slot free while a dial waits.
 */
class WaitingRoomModelTest {

    /** The reference: the same rules, the simplest way. */
    private static final class Model {
        final int slots;
        final int capacity;
        final List<long[]> waiting = new ArrayList<>(); // {id, tenant, rank, arrival, stage}
        final List<Long> turns = new ArrayList<>();
        final Map<Long, Integer> running = new HashMap<>();
        int inUse;
        long arrivals;

        Model(int slots, int capacity) {
            this.slots = slots;
            this.capacity = capacity;
        }

        /** @return {state ordinal, displaced id or -1} */
        /** Whether waiter {@code a} is better than {@code b}: lower rank, then higher stage, then earlier. */
        static boolean better(long[] a, long[] b) {
            if (a[2] != b[2]) {
                return a[2] < b[2];
            }
            if (a[4] != b[4]) {
                return a[4] > b[4];
            }
            return a[3] < b[3];
        }

        long[] arrive(long id, long tenant, long rank, int stage, boolean mayWait) {
            long arrival = arrivals++;
            if (inUse < slots) {
                inUse++;
                running.merge(tenant, 1, Integer::sum);
                return new long[] {State.ADMITTED.ordinal(), -1};
            }
            if (!mayWait || capacity == 0) {
                return new long[] {State.REFUSED.ordinal(), -1};
            }
            long displaced = -1;
            long[] me = {id, tenant, rank, arrival, stage};
            if (waiting.size() >= capacity) {
                long[] worst = waiting.getFirst();
                for (long[] w : waiting) {
                    if (better(worst, w)) {
                        worst = w;
                    }
                }
                if (!better(me, worst)) {
                    return new long[] {State.REFUSED.ordinal(), -1};
                }
                displaced = worst[0];
            }
            // Seated before the worst is taken out: a tenant that displaces its own last waiter keeps its turn.
            if (waiting.stream().noneMatch(w -> w[1] == tenant)) {
                turns.add(tenant);
            }
            waiting.add(me);
            if (displaced >= 0) {
                long gone = displaced;
                remove(waiting.stream().filter(w -> w[0] == gone).findFirst().orElseThrow());
            }
            return new long[] {State.WAITING.ordinal(), displaced};
        }

        /** @return the id admitted, or -1 */
        long free(long endingTenant) {
            inUse--;
            running.merge(endingTenant, -1, Integer::sum);
            if (turns.isEmpty()) {
                return -1;
            }
            long tenant = turns.getFirst();
            for (long t : turns) {
                if (running.getOrDefault(t, 0) < running.getOrDefault(tenant, 0)) {
                    tenant = t;
                }
            }
            turns.remove(Long.valueOf(tenant));
            long[] best = null;
            for (long[] w : waiting) {
                if (w[1] == tenant && (best == null || better(w, best))) {
                    best = w;
                }
            }
            remove(best);
            long served = tenant;
            if (waiting.stream().anyMatch(w -> w[1] == served)) {
                turns.add(served);
            }
            inUse++;
            running.merge(served, 1, Integer::sum);
            return best[0];
        }

        boolean leave(long id) {
            for (long[] w : waiting) {
                if (w[0] == id) {
                    remove(w);
                    return true;
                }
            }
            return false;
        }

        private void remove(long[] w) {
            waiting.remove(w);
            if (waiting.stream().noneMatch(x -> x[1] == w[1])) {
                turns.remove(Long.valueOf(w[1]));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
    void everyInterleavingAgreesWithTheModelAndKeepsTheSlotAccounting(long seed) {
        Random random = new Random(seed);
        int slots = 1 + random.nextInt(4);
        int capacity = random.nextInt(6);
        WaitingRoom<Long> room = new WaitingRoom<>(slots, capacity);
        Model model = new Model(slots, capacity);
        Map<Long, Seat<Long>> seats = new HashMap<>();
        List<Seat<Long>> holding = new ArrayList<>(); // admitted seats whose job has not given its slot back
        long nextId = 0;
        for (int step = 0; step < 3_000; step++) {
            int op = random.nextInt(10);
            if (op < 4) {
                long id = nextId++;
                long tenant = random.nextInt(4);
                long rank = random.nextInt(8);
                int stage = random.nextInt(3);
                boolean mayWait = random.nextInt(5) > 0;
                Arrival<Long> a = room.arrive(id, "t" + tenant, rank, stage, mayWait);
                long[] expected = model.arrive(id, tenant, rank, stage, mayWait);
                assertEquals(State.values()[(int) expected[0]], a.seat().state(), "arrival of " + id);
                assertEquals(expected[1], a.displaced().map(Seat::payload).orElse(-1L), "displaced by " + id);
                a.displaced().ifPresent(d -> assertEquals(State.REFUSED, d.state()));
                seats.put(id, a.seat());
                if (a.seat().state() == State.ADMITTED) {
                    holding.add(a.seat());
                }
            } else if (op < 7) {
                if (!holding.isEmpty()) {
                    // A job ends (or its client cancels it): its slot goes back, once.
                    Seat<Long> ending = holding.remove(random.nextInt(holding.size()));
                    long expected = model.free(Long.parseLong(ending.tenant().substring(1)));
                    var admitted = room.free(ending);
                    assertEquals(State.ENDED, ending.state());
                    assertEquals(expected, admitted.map(Seat::payload).orElse(-1L), "freed slot at step " + step);
                    admitted.ifPresent(s -> {
                        assertEquals(State.ADMITTED, s.state());
                        holding.add(s);
                    });
                }
            } else if (nextId > 0) {
                // A wait ends or a client goes away, racing whatever happened to the seat meanwhile.
                long id = random.nextLong(nextId);
                Seat<Long> s = seats.get(id);
                State before = s.state();
                boolean left = room.leave(s);
                assertEquals(model.leave(id), left, "leave of " + id + " (" + before + ")");
                assertEquals(left, before == State.WAITING);
                assertEquals(left ? State.LEFT : before, s.state(), "only a waiting seat changes when it leaves");
            }
            assertEquals(holding.size(), room.inUse(), "slots in use are the admitted jobs not yet ended");
            assertTrue(room.inUse() <= slots, "never past the limit");
            assertTrue(room.waiting() <= capacity, "never more waiters than seats");
            assertEquals(model.waiting.size(), room.waiting());
            assertTrue(room.waiting() == 0 || room.inUse() == slots, "no slot free while a dial waits");
            long waitingSeats = seats.values().stream().filter(s -> s.state() == State.WAITING).count();
            assertEquals(room.waiting(), waitingSeats, "every waiting seat is in the room and nothing else is");
        }
    }
}
