package dev.orderly.grpc.room;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The rules of one tier2 instance's waiting room: its job slots, and the dials that wait for one while it is full.
 *
 * <ul>
 *   <li>A dial that finds a free slot is admitted at once. A dial that finds the instance full and asks to wait takes a
 *       seat in the room, if the room has one; otherwise it is refused at once, exactly as without a room.
 *   <li>A slot given back ({@link #free}) goes at once to a waiter: to the waiting tenant with the fewest jobs running
 *       on this instance, and among tenants with as many to the one whose turn it is (tenants take turns, round robin:
 *       a tenant served goes to the back of the line, a tenant that starts waiting joins it at the back); within that
 *       tenant to its lowest segment, the one its client needs soonest, as it reads in order (given by
 *       {@link #arrive(Object, String, long, long, int, boolean)}; a rank is as old as its dial, so two dials of one
 *       client made while it read on are not ordered by their ranks), or, when no segment is given, to its lowest
 *       rank; among equal segments (ranks) to the highest stage (its job also produces the partials of the stages
 *       under it, so a lower stage's job may never have to run), then the earliest arrival. No slot stays free while
 *       anyone waits.
 *   <li>When the room is full, a dial ranked strictly better than the worst waiter (in the order above, over every
 *       tenant: highest rank, then lowest stage, then latest arrival) takes that waiter's seat; the waiter is refused.
 *       Otherwise the dial is refused, and so is a dial whose tenant's own worst waiter comes first in the tenant's
 *       order (a lower segment its client reads first, its rank only older).
 *   <li>A waiter whose wait ends, or whose client goes away, {@link #leave leaves}: its seat is free at once and it is
 *       refused; it never held a slot.
 *   <li>Never more than {@code slots} admitted at once; a room of capacity 0 refuses every dial that finds the instance
 *       full, which is the behaviour of a tier2 with no room.
 * </ul>
 *
 * <p>This class holds rules only: no threads, no clock, no lock. It is <em>not</em> thread-safe; its owner (a
 * simulated fleet, a gRPC tier2's admission limit) calls it under its own lock, waits on its own conditions, and wakes
 * the waiters whose {@link Seat#state() state} a call changed: every method returns the seats it admitted or refused.
 *
 * @param <T> what the owner keeps with each seat (the waiting call, its condition)
 */
public final class WaitingRoom<T> {

    /*
     * Implementation notes.
     *
     * Invariants (after every public method returns):
     *  - 0 <= inUse <= slots; 0 <= seated.size() <= capacity.
     *  - seated.isEmpty() || inUse == slots: a waiter exists only while the instance is full (free() hands a slot over
     *    in the same call that gives it back).
     *  - Every WAITING seat is in exactly one place in each of: seated (all waiters by rank), byTenant.get(tenant)
     *    (the tenant's waiters by segment); its tenant is in turns exactly once. A tenant with no waiter is in neither.
     *  - running.get(t) is the number of ADMITTED seats of tenant t (absent when 0); their sum is inUse.
     *  - A seat leaves WAITING exactly once, to ADMITTED, REFUSED or LEFT, and never changes state again.
     */

    /** Where a seat stands. */
    public enum State {
        /** In the room, holding no slot. */
        WAITING,
        /** Holds a slot: the job may run. The owner gives the slot back with {@link #free} when the job ends. */
        ADMITTED,
        /** Its job ended (or was cancelled) and gave its slot back. */
        ENDED,
        /** Turned away: the instance was full and the room had no seat for it, or a better-ranked dial took its seat. */
        REFUSED,
        /** Left the room by {@link #leave}: its wait ended or its client went away. */
        LEFT
    }

    /** One dial at this instance. Its state changes only inside the room's methods, under the owner's lock. */
    public static final class Seat<T> {
        private final WaitingRoom<T> room;
        private final T payload;
        private final String tenant;
        private final long segment;
        private final long rank;
        private final int stage;
        private final long arrival;
        private State state;

        private Seat(WaitingRoom<T> room, T payload, String tenant, long segment, long rank, int stage,
                     long arrival) {
            this.room = room;
            this.payload = payload;
            this.tenant = tenant;
            this.segment = segment;
            this.rank = rank;
            this.stage = stage;
            this.arrival = arrival;
        }

        /** What the owner keeps with this seat. */
        public T payload() {
            return payload;
        }

        /** The tenant the dial belongs to. */
        public String tenant() {
            return tenant;
        }

        /** How soon the dial's client needs it: 0 is the segment it waits for now. */
        public long rank() {
            return rank;
        }

        /** The stage of the dial's job; among equal ranks the higher stage goes first. */
        public int stage() {
            return stage;
        }

        /** Where the seat stands now. */
        public State state() {
            return state;
        }

        @Override
        public String toString() {
            return tenant + "#" + rank + " " + state;
        }
    }

    /**
     * What became of an arriving dial.
     *
     * @param seat the dial's seat: ADMITTED, WAITING or REFUSED
     * @param displaced the waiter the dial took the seat of (now REFUSED), if any
     */
    public record Arrival<T>(Seat<T> seat, Optional<Seat<T>> displaced) {
        /** @throws NullPointerException naming the field that is null */
        public Arrival {
            Objects.requireNonNull(seat, "seat");
            Objects.requireNonNull(displaced, "displaced");
        }
    }

    /** Better first: lower rank, then higher stage, then earlier arrival. */
    private static final Comparator<Seat<?>> BETTER_FIRST = Comparator.<Seat<?>>comparingLong(s -> s.rank)
            .thenComparing(Comparator.<Seat<?>>comparingInt(s -> s.stage).reversed())
            .thenComparingLong(s -> s.arrival);

    /** Within one tenant, first to be admitted first: lower segment, then higher stage, then earlier arrival. */
    private static final Comparator<Seat<?>> FIRST_IN_TENANT = Comparator.<Seat<?>>comparingLong(s -> s.segment)
            .thenComparing(Comparator.<Seat<?>>comparingInt(s -> s.stage).reversed())
            .thenComparingLong(s -> s.arrival);

    private final int slots;
    private final int capacity;
    private final TreeSet<Seat<T>> seated = new TreeSet<>(BETTER_FIRST);
    private final Map<String, TreeSet<Seat<T>>> byTenant = new HashMap<>();
    private final ArrayDeque<String> turns = new ArrayDeque<>();
    private final Map<String, Integer> running = new HashMap<>();
    private int inUse;
    private long arrivals;

    /**
     * @param slots jobs the instance runs at once, {@code >= 1}
     * @param capacity dials that may wait at once, {@code >= 0} (0: no room, a full instance refuses at once)
     * @throws IllegalArgumentException naming the parameter and its value when it is out of range
     */
    public WaitingRoom(int slots, int capacity) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be >= 1, was " + slots);
        }
        if (capacity < 0) {
            throw new IllegalArgumentException("waiting room capacity must be >= 0, was " + capacity);
        }
        this.slots = slots;
        this.capacity = capacity;
    }

    /**
     * A dial arrives: it is admitted if a slot is free; else, if it asks to wait, it takes a seat (displacing the worst
     * waiter when the room is full and the dial ranks better); else it is refused.
     *
     * @param payload what the owner keeps with the seat
     * @param tenant the dial's tenant; tenants take turns for freed slots
     * @param rank how soon its client needs it, {@code >= 0}; lower is sooner
     * @param stage the stage of its job, {@code >= 0}; among equal ranks a higher stage is better
     * @param mayWait whether the dial asked to wait ({@code max_wait > 0}); one that did not is refused when full
     * @throws IllegalArgumentException if {@code rank < 0} or {@code stage < 0}
     */
    public Arrival<T> arrive(T payload, String tenant, long rank, int stage, boolean mayWait) {
        return arrive(payload, tenant, rank, rank, stage, mayWait);
    }

    /**
     * As {@link #arrive(Object, String, long, int, boolean)}, for a dial whose tenant is one client reading in order
     * (a request): within the tenant, freed slots go to its lowest {@code segment} first, whatever the ranks, which
     * were taken when each dial was made; across tenants the ranks weigh as before.
     *
     * @param segment the segment of the dial's job, {@code >= 0}
     * @throws IllegalArgumentException if {@code segment}, {@code rank} or {@code stage} is negative
     */
    public Arrival<T> arrive(T payload, String tenant, long segment, long rank, int stage, boolean mayWait) {
        Objects.requireNonNull(tenant, "tenant");
        if (rank < 0) {
            throw new IllegalArgumentException("rank must be >= 0, was " + rank);
        }
        if (stage < 0) {
            throw new IllegalArgumentException("stage must be >= 0, was " + stage);
        }
        if (segment < 0) {
            throw new IllegalArgumentException("segment must be >= 0, was " + segment);
        }
        Seat<T> seat = new Seat<>(this, payload, tenant, segment, rank, stage, arrivals++);
        if (inUse < slots) {
            assert seated.isEmpty() : "a slot was free while dials waited";
            admit(seat);
            return new Arrival<>(seat, Optional.empty());
        }
        if (!mayWait || capacity == 0) {
            seat.state = State.REFUSED;
            return new Arrival<>(seat, Optional.empty());
        }
        Seat<T> worst = null;
        if (seated.size() >= capacity) {
            worst = seated.last();
            // Equal rank and stage: the later arrival is the worse. A waiter of the dial's own tenant is compared in
            // the tenant's order: its rank may be older than the dial's, and its client read it first.
            if (BETTER_FIRST.compare(seat, worst) > 0
                    || worst.tenant.equals(tenant) && FIRST_IN_TENANT.compare(seat, worst) > 0) {
                seat.state = State.REFUSED;
                return new Arrival<>(seat, Optional.empty());
            }
        }
        seat.state = State.WAITING;
        seated.add(seat);
        byTenant.computeIfAbsent(tenant, t -> {
            turns.addLast(t);
            return new TreeSet<>(FIRST_IN_TENANT);
        }).add(seat);
        if (worst == null) {
            return new Arrival<>(seat, Optional.empty());
        }
        // Out only once the new seat is in: a tenant that displaces its own last waiter never stopped waiting, and
        // keeps its place in the turns.
        unseat(worst, State.REFUSED);
        return new Arrival<>(seat, Optional.of(worst));
    }

    /**
     * The job of {@code admitted} ended (or was cancelled) and gives its slot back. If anyone waits, the slot goes at
     * once to the best waiter of the waiting tenant with the fewest jobs running here (round robin among equals), and
     * that tenant goes to the back of the turns.
     *
     * @param admitted the seat that held the slot; it is ENDED after this call
     * @return the seat now ADMITTED into the slot, if any
     * @throws IllegalStateException if the seat holds no slot (it was never admitted, or gave its slot back already)
     * @throws IllegalArgumentException if the seat is another room's
     */
    public Optional<Seat<T>> free(Seat<T> admitted) {
        Objects.requireNonNull(admitted, "admitted");
        if (admitted.room != this) {
            throw new IllegalArgumentException("the seat " + admitted + " is another room's");
        }
        if (admitted.state != State.ADMITTED) {
            throw new IllegalStateException("a slot was given back that " + admitted + " did not hold");
        }
        admitted.state = State.ENDED;
        inUse--;
        running.merge(admitted.tenant, -1, Integer::sum);
        running.remove(admitted.tenant, 0);
        String tenant = nextTenant();
        if (tenant == null) {
            return Optional.empty();
        }
        turns.remove(tenant);
        Seat<T> next = byTenant.get(tenant).first();
        unseat(next, State.ADMITTED);
        if (byTenant.containsKey(tenant)) {
            turns.addLast(tenant); // still has waiters: back of the line
        }
        admit(next);
        return Optional.of(next);
    }

    /**
     * The tenant whose waiter gets the next freed slot, or null if nobody waits: of the tenants with a waiter, the one
     * with the fewest jobs running here, the earliest in the turns among equals. O(waiting tenants).
     */
    private String nextTenant() {
        String best = null;
        int fewest = Integer.MAX_VALUE;
        for (String t : turns) {
            int r = running.getOrDefault(t, 0);
            if (r < fewest) {
                best = t;
                fewest = r;
            }
        }
        return best;
    }

    private void admit(Seat<T> seat) {
        inUse++;
        running.merge(seat.tenant, 1, Integer::sum);
        seat.state = State.ADMITTED;
    }

    /**
     * A waiter leaves: its wait ended, or its client went away. Leaving is idempotent.
     *
     * @return true if the seat was WAITING and is now LEFT; false if it had already been admitted (it holds a slot,
     *     which its owner must use or {@link #free give back}), refused, or had left
     * @throws IllegalArgumentException if the seat is another room's
     */
    public boolean leave(Seat<T> seat) {
        Objects.requireNonNull(seat, "seat");
        if (seat.room != this) {
            throw new IllegalArgumentException("the seat " + seat + " is another room's");
        }
        if (seat.state != State.WAITING) {
            return false;
        }
        unseat(seat, State.LEFT);
        return true;
    }

    /**
     * Refuses every waiter at once (the instance drains and will admit no one).
     *
     * @return the seats refused, best first
     */
    public List<Seat<T>> refuseAll() {
        List<Seat<T>> refused = new ArrayList<>(seated);
        for (Seat<T> s : refused) {
            unseat(s, State.REFUSED);
        }
        return refused;
    }

    /** Slots admitted now. */
    public int inUse() {
        return inUse;
    }

    /** The instance's slots. */
    public int slots() {
        return slots;
    }

    /** Seats in the room. */
    public int capacity() {
        return capacity;
    }

    /** Dials waiting now. */
    public int waiting() {
        return seated.size();
    }

    /** Dials of {@code tenant} waiting now. */
    public int waiting(String tenant) {
        TreeSet<Seat<T>> mine = byTenant.get(tenant);
        return mine == null ? 0 : mine.size();
    }

    /** True when every slot is in use and every seat taken: a dial that asks to wait can only displace. */
    public boolean full() {
        return inUse >= slots && seated.size() >= capacity;
    }

    /** Takes a waiting seat out of every index and gives it its final state. */
    private void unseat(Seat<T> seat, State to) {
        assert seat.state == State.WAITING : seat;
        seated.remove(seat);
        TreeSet<Seat<T>> mine = byTenant.get(seat.tenant);
        mine.remove(seat);
        if (mine.isEmpty()) {
            byTenant.remove(seat.tenant);
            turns.remove(seat.tenant);
        }
        seat.state = to;
    }

    @Override
    public String toString() {
        return "WaitingRoom[" + inUse + "/" + slots + " slots, " + seated.size() + "/" + capacity + " waiting]";
    }
}
