package dev.orderly.sim.fleet;

import dev.orderly.api.JobKey;
import dev.orderly.grpc.room.WaitingRoom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A simulated tier2 fleet: {@code instances x slotsPerInstance} job slots behind a load balancer that sends every
 * dial to a random instance. An instance at its limit refuses the job at once, without running anything, exactly as a
 * real tier2 at its concurrent-request limit does; the job must dial again and may land anywhere.
 *
 * <p>Tenants (requests) reach the fleet through {@link #tenant(String, int)}: each gets its own {@link Tier2Client
 * client} and output store, and all of them compete for the same slots.
 *
 * <p>With an {@link Admission} that has a waiting room, each instance keeps one ({@link WaitingRoom}, the same rules a
 * gRPC tier2 uses): a tenant made with {@link #waitingTenant} waits there for a slot instead of being refused, and a
 * slot given back goes at once to a waiter (the waiting tenant with the fewest jobs running there, round robin among
 * equals; within it the lowest segment). A waiter holds no slot.
 *
 * <h2>Invariants (all guarded by {@code lock})</h2>
 * <ul>
 *   <li>{@code rooms[i]} keeps instance {@code i}'s slot accounting: {@code 0 <= rooms[i].inUse() <= slotsPerInstance};
 *       a dial is admitted iff its instance had a free slot at that moment, or a slot given back there was handed to
 *       it, and it takes the slot in the same critical section.
 *   <li>{@code busy} is the sum of the rooms' slots in use; {@code peakBusy} its maximum so far.
 *   <li>A slot is given back exactly once per admission ({@link SimulatedCall} releases it when the job ends or is
 *       closed, whichever comes first).
 *   <li>A waiting dial ({@link Waiter}) has a seat at one or more instances; the moment one admits it, it leaves the
 *       others, so it never holds two slots. Its {@code instance} is set once, under the lock, and its thread is then
 *       signalled; so is a waiter that lost its last seat to a better-ranked dial.
 * </ul>
 * Random decisions come from {@link FateDraws} outside the lock; the lock covers only slot accounting.
 *
 * <p>This class is thread-safe.
 *
 * @see dev.orderly.api.Tier2Client
 */
public final class SimulatedFleet implements TenantFleet {

    private final FleetConfig config;
    private final FateDraws draws;
    private final ReentrantLock lock = new ReentrantLock();

    // guarded by lock
    private final List<WaitingRoom<Waiter>> rooms;
    // guarded by lock
    private final Map<String, Map<JobKey, Integer>> admissionsPerUnit = new HashMap<>();
    // guarded by lock
    private int busy;
    // guarded by lock
    private int peakBusy;
    // guarded by lock
    private long dials;
    // guarded by lock
    private long unreachable;
    // guarded by lock
    private long refused;
    // guarded by lock
    private long admitted;
    // guarded by lock
    private long cancelled;
    // guarded by lock
    private final long[] ended = new long[Fate.Outcome.values().length];

    /** A fleet with every slot free and no waiting room: a full instance refuses at once. */
    public SimulatedFleet(FleetConfig config) {
        this(config, 0);
    }

    /**
     * A fleet with every slot free and a waiting room of {@code seats} per instance (0: none).
     *
     * @throws IllegalArgumentException if {@code seats < 0}
     */
    public SimulatedFleet(FleetConfig config, int seats) {
        this.config = Objects.requireNonNull(config, "config");
        this.draws = new FateDraws(config);
        List<WaitingRoom<Waiter>> r = new ArrayList<>(config.instances());
        for (int i = 0; i < config.instances(); i++) {
            r.add(new WaitingRoom<>(config.slotsPerInstance(), seats));
        }
        this.rooms = List.copyOf(r);
    }

    /** A dial waiting in one or more rooms. Its fields are guarded by the fleet's lock. */
    static final class Waiter {
        final Condition admitted;
        final String tenant;
        final JobKey key;
        final List<WaitingRoom.Seat<Waiter>> seats = new ArrayList<>();
        final List<Integer> seatInstances = new ArrayList<>();
        int instance = -1;
        int admission;
        WaitingRoom.Seat<Waiter> slot;

        Waiter(Condition admitted, String tenant, JobKey key) {
            this.admitted = admitted;
            this.tenant = tenant;
            this.key = key;
        }

        boolean seated() {
            return seats.stream().anyMatch(s -> s.state() == WaitingRoom.State.WAITING);
        }
    }

    /**
     * Where a dial was admitted, the unit's admission number (from 1), and the seat that holds the slot; or
     * {@link #REFUSED}.
     */
    record Admitted(int instance, int admission, WaitingRoom.Seat<Waiter> slot) {
        static final Admitted REFUSED = new Admitted(-1, 0, null);

        boolean refused() {
            return instance < 0;
        }
    }

    /** The configuration of this fleet. */
    public FleetConfig config() {
        return config;
    }

    /**
     * A client for one tenant's request. Its name feeds the random draws, so the same name meets the same run times
     * and faults in every run with the same seed.
     *
     * @param name the tenant's name, also used in the outputs it writes
     * @param stages the request's stages; the last one writes the output the client reads
     */
    @Override
    public SimulatedTier2 tenant(String name, int stages) {
        return new SimulatedTier2(this, name, stages, Duration.ZERO, 1);
    }

    /**
     * A client for one tenant's request whose dials wait in the instances' waiting rooms, up to {@code maxWait}
     * (simulated time) at {@code waitAt} instances at once, instead of being refused at once by a full instance.
     *
     * @throws IllegalArgumentException if {@code maxWait} is not positive or {@code waitAt < 1}
     */
    @Override
    public SimulatedTier2 waitingTenant(String name, int stages, Duration maxWait, int waitAt) {
        if (!maxWait.isPositive()) {
            throw new IllegalArgumentException("admission wait must be > 0, was " + maxWait);
        }
        if (waitAt < 1) {
            throw new IllegalArgumentException("instances a dial waits at must be >= 1, was " + waitAt);
        }
        return new SimulatedTier2(this, name, stages, maxWait, waitAt);
    }

    /** Dials waiting in the rooms now, over every instance. */
    public int waiting() {
        lock.lock();
        try {
            return rooms.stream().mapToInt(WaitingRoom::waiting).sum();
        } finally {
            lock.unlock();
        }
    }

    /** A snapshot of what the fleet has done so far. */
    @Override
    public FleetStats stats() {
        lock.lock();
        try {
            return new FleetStats(dials, unreachable, refused, admitted, busy, peakBusy, cancelled, ended.clone());
        } finally {
            lock.unlock();
        }
    }

    FateDraws draws() {
        return draws;
    }

    /** Counts a dial whose job was cancelled as it arrived: it takes no slot and gets no answer. */
    void countCancelledDial() {
        lock.lock();
        try {
            dials++;
        } finally {
            lock.unlock();
        }
    }

    /** Counts a dial that found no healthy upstream. */
    void countUnreachable() {
        lock.lock();
        try {
            dials++;
            unreachable++;
        } finally {
            lock.unlock();
        }
    }

    /** Takes a slot on {@code instance} if it has one; {@link Admitted#REFUSED} if the instance is full. */
    Admitted tryAdmit(int instance, String tenant, JobKey key) {
        lock.lock();
        try {
            dials++;
            WaitingRoom.Seat<Waiter> seat = rooms.get(instance).arrive(null, tenant, 0, key.stage(), false).seat();
            if (seat.state() != WaitingRoom.State.ADMITTED) {
                refused++;
                return Admitted.REFUSED;
            }
            return new Admitted(instance, admittedLocked(tenant, key), seat);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes a slot on one of {@code instances}, waiting in their rooms up to {@code wallWait} (wall-clock time) for
     * one to free; the first admission wins and the dial leaves the other rooms at once.
     *
     * @param rank how far the job is ahead of its client when it dials; lower ranks get freed slots first, but among
     *     one tenant's dials the lower segment does
     * @return where it was admitted, or {@link Admitted#REFUSED} if every room turned it away or the wait ended
     * @throws InterruptedException if the dial's thread is interrupted (its job cancelled): it leaves every room, and
     *     gives back a slot it was handed meanwhile
     */
    Admitted admitOrWait(int[] instances, String tenant, JobKey key, long rank, Duration wallWait)
            throws InterruptedException {
        lock.lock();
        try {
            dials++;
            Waiter w = new Waiter(lock.newCondition(), tenant, key);
            // A free slot anywhere is taken at once, and nowhere else is arrived at: seated at a full instance before
            // it, the dial could take the seat of a worse waiter there (refused) and then leave that room at once.
            int[] arriveAt = instances;
            for (int i : instances) {
                if (rooms.get(i).inUse() < rooms.get(i).slots()) {
                    arriveAt = new int[] {i};
                    break;
                }
            }
            for (int i : arriveAt) {
                // A tenant is one request, its client reading in order: its own dials go by segment (a rank is as
                // old as its dial), across tenants by rank, as a tier2's room orders a request's dials.
                WaitingRoom.Arrival<Waiter> a = rooms.get(i).arrive(w, tenant, key.segment(), rank, key.stage(),
                        true);
                a.displaced().ifPresent(SimulatedFleet::displaced);
                switch (a.seat().state()) {
                    case ADMITTED -> {
                        w.instance = i;
                        w.admission = admittedLocked(tenant, key);
                        w.slot = a.seat();
                        leaveOtherRooms(w);
                        return new Admitted(i, w.admission, w.slot);
                    }
                    case WAITING -> {
                        w.seats.add(a.seat());
                        w.seatInstances.add(i);
                    }
                    default -> { } // this room had no seat for it
                }
            }
            long nanos = wallWait.toNanos();
            try {
                while (w.instance < 0 && w.seated() && nanos > 0) {
                    nanos = w.admitted.awaitNanos(nanos);
                }
            } catch (InterruptedException e) {
                leaveOtherRooms(w);
                if (w.instance >= 0) {
                    // Handed a slot as the interrupt came: the job is cancelled before it ran, so the slot goes back.
                    releaseLocked(w.instance, w.slot, null);
                }
                throw e;
            }
            if (w.instance >= 0) {
                return new Admitted(w.instance, w.admission, w.slot);
            }
            leaveOtherRooms(w);
            refused++;
            return Admitted.REFUSED;
        } finally {
            lock.unlock();
        }
    }

    /** A waiter lost a seat to a better-ranked dial; with no seat left it wakes to be refused. Holds the lock. */
    private static void displaced(WaitingRoom.Seat<Waiter> seat) {
        Waiter w = seat.payload();
        if (w.instance < 0 && !w.seated()) {
            w.admitted.signal();
        }
    }

    /** Takes the waiter out of every room it still waits in. Holds the lock. */
    private void leaveOtherRooms(Waiter w) {
        for (int k = 0; k < w.seats.size(); k++) {
            rooms.get(w.seatInstances.get(k)).leave(w.seats.get(k));
        }
    }

    /** A slot was taken: counts it and numbers the unit's admission. Holds the lock. */
    private int admittedLocked(String tenant, JobKey key) {
        busy++;
        peakBusy = Math.max(peakBusy, busy);
        admitted++;
        return admissionsPerUnit.computeIfAbsent(tenant, t -> new HashMap<>()).merge(key, 1, Integer::sum);
    }

    /** Gives the slot {@code slot} holds back; called once per admission, with null as a cancelled job's outcome. */
    void release(int instance, WaitingRoom.Seat<Waiter> slot, Fate.Outcome outcome) {
        lock.lock();
        try {
            releaseLocked(instance, slot, outcome);
        } finally {
            lock.unlock();
        }
    }

    /** Gives a slot back and hands it at once to the room's next waiter, if any. Holds the lock. */
    private void releaseLocked(int instance, WaitingRoom.Seat<Waiter> slot, Fate.Outcome outcome) {
        WaitingRoom<Waiter> room = rooms.get(instance);
        Optional<WaitingRoom.Seat<Waiter>> next;
        try {
            next = room.free(slot);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new IllegalStateException("instance " + instance + " released a slot it did not hold", e);
        }
        busy--;
        if (outcome == null) {
            cancelled++;
        } else {
            ended[outcome.ordinal()]++;
        }
        if (next.isPresent()) {
            Waiter w = next.get().payload();
            w.instance = instance;
            w.slot = next.get();
            w.admission = admittedLocked(w.tenant, w.key);
            leaveOtherRooms(w);
            w.admitted.signal();
        }
    }
}
