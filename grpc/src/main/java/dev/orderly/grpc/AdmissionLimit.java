package dev.orderly.grpc;

import dev.orderly.grpc.room.WaitingRoom;
import dev.orderly.grpc.room.WaitingRoom.Seat;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A tier2's job slots and its waiting room: at most {@code max} jobs admitted at once; a dial that finds them all
 * taken is refused at once, unless the instance has a room and the dial asks to wait, in which case it waits, holding
 * no slot, until a slot frees (it is handed over in the same critical section that gives it back, to the waiter the
 * {@link WaitingRoom} rules choose), its wait ends, a better-ranked dial takes its seat in a full room, or its client
 * goes away. The instance's {@code grpc.health.v1} statuses are kept in step.
 *
 * <p>The load status (service {@code orderly.tier2.v1.Tier2}, what health-checking clients watch) is NOT_SERVING
 * while the instance is draining, or has been full for {@code fullFor} (SERVING again the moment it is not), so
 * clients stop sending it calls it would refuse. Full means every slot taken <em>and</em> every seat of the room
 * taken: while a seat is free a dial that asks to wait is still welcome. Why not at once: an instance whose load
 * matches its slots is full for a moment after every admission, and a client that hears NOT_SERVING then fails its
 * next dial itself (UNREACHABLE) although a slot frees a moment later; docs/results/transport.md has the
 * measurement. The overall status (service {@code ""}, what liveness and readiness probes ask) is SERVING from start
 * until the drain begins: being busy never fails a probe.
 *
 * <p>What becomes of a dial is told to its {@link Waiter} <em>after</em> the lock is let go (a waiter sends on its
 * gRPC call), exactly once: admitted (it then holds a slot, given back with {@link #release}) or refused.
 *
 * <h2>Invariants (all guarded by {@code lock})</h2>
 * <ul>
 *   <li>{@code room} holds the slot accounting: {@code 0 <= room.inUse() <= max}, waiters only while every slot is
 *       taken. A slot is taken only inside {@link #arrive} (the slot was free) or {@link #release} (handed from the
 *       job that gave it back to a waiter, in the same critical section), and given back only by {@link #release},
 *       which the slot's holder ({@link ServerJob}, or a {@link ServerDial} whose client went away as it was
 *       admitted) calls exactly once. So the room never admits past {@code max}.
 *   <li>{@code waitEnds} holds exactly the WAITING seats, each with the timer that ends its wait; a seat leaves it
 *       (its timer cancelled) in the critical section that takes it out of WAITING.
 *   <li>{@code draining} only turns true; once it is, nothing is admitted and nobody waits.
 *   <li>{@code fullNow == (!draining && room.full())} after every method; {@code fullReported} implies
 *       {@code fullNow}: it is set by the check {@code fullFor} after the change that filled the instance, if nothing
 *       changed that since ({@code fullEpoch} unchanged).
 *   <li>{@code serving == !draining && !fullReported} after every method returns, and the health manager was last told
 *       {@code serving} for the load status: statuses are set under the lock, so two changes can not reach it out
 *       of order.
 *   <li>{@code idle} is signalled when no slot is held.
 * </ul>
 * This class is thread-safe.
 */
final class AdmissionLimit {

    /** Why a dial was turned away. */
    enum Refusal {
        /** Every slot taken: at arrival with no seat for it, its wait ended, or a better dial took its seat. */
        FULL,
        /** The instance is draining. */
        DRAINING
    }

    /** One dial at this instance, told what became of it (never under the lock, exactly once). */
    interface Waiter {
        /**
         * It holds a slot now, to be given back with {@link AdmissionLimit#release(Seat)} when its job ends; it calls
         * {@link AdmissionLimit#started()} as it tells its client {@code Admitted} (not when its client went away,
         * or the server began to stop, before that).
         */
        void admitted(Seat<Waiter> slot);

        /** It was turned away; it holds no slot. */
        void refused(Refusal why);
    }

    private final int max;
    private final long maxWaitNanos;
    private final HealthStatusManager health;
    private final ScheduledExecutorService timer;
    private final long fullForNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();

    // guarded by lock
    private final WaitingRoom<Waiter> room;
    // guarded by lock
    private final Map<Seat<Waiter>, ScheduledFuture<?>> waitEnds = new HashMap<>();
    // guarded by lock
    private boolean draining;
    // guarded by lock
    private boolean serving;
    // guarded by lock
    private boolean fullNow;
    // guarded by lock
    private boolean fullReported;
    // guarded by lock
    private long fullEpoch;
    // guarded by lock
    private long admitted;
    // guarded by lock
    private long refused;

    /**
     * @param roomCapacity seats in the waiting room, 0 for none (a full instance refuses every dial at once)
     * @param maxWait the longest a dial may wait, whatever it asks (zero without a room)
     * @param fullFor how long the instance must stay full before its load status says so (zero: at once)
     * @param timer runs that check and ends waits
     */
    AdmissionLimit(int max, int roomCapacity, Duration maxWait, HealthStatusManager health, Duration fullFor,
                   ScheduledExecutorService timer) {
        this.max = max;
        this.room = new WaitingRoom<>(max, roomCapacity);
        this.maxWaitNanos = roomCapacity == 0 ? 0 : maxWait.toNanos();
        this.health = health;
        this.fullForNanos = fullFor.toNanos();
        this.timer = timer;
        this.serving = true; // max >= 1: a new instance has room
        health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.SERVING);
        health.setStatus(Tier2Protocol.SERVICE_NAME, ServingStatus.SERVING);
    }

    /**
     * A dial arrives: it takes a free slot, or waits (if the instance has a room and {@code askedWaitMillis > 0}; it
     * waits at most the room's own limit), or is refused. The waiter is told which, now or later.
     *
     * @param rank how far ahead of its client the job is, {@code >= 0}
     * @return the dial's seat, for {@link #leave}; null if the instance is draining
     */
    Seat<Waiter> arrive(Waiter waiter, String tenant, long rank, int stage, long askedWaitMillis) {
        return arrive(waiter, tenant, rank, rank, stage, askedWaitMillis);
    }

    /**
     * As {@link #arrive(Waiter, String, long, int, long)}; {@code segment} orders the dials of one tenant
     * ({@link WaitingRoom#arrive(Object, String, long, long, int, boolean)}).
     */
    Seat<Waiter> arrive(Waiter waiter, String tenant, long segment, long rank, int stage, long askedWaitMillis) {
        Seat<Waiter> seat;
        WaitingRoom.State arrival = null;
        Optional<Seat<Waiter>> displaced;
        lock.lock();
        try {
            if (draining) {
                refused++;
                seat = null;
                displaced = Optional.empty();
            } else {
                long waitNanos = Math.min(TimeUnit.MILLISECONDS.toNanos(Math.max(0, askedWaitMillis)), maxWaitNanos);
                WaitingRoom.Arrival<Waiter> a = room.arrive(waiter, tenant, segment, rank, stage,
                        waitNanos > 0);
                seat = a.seat();
                displaced = a.displaced();
                arrival = seat.state();
                switch (arrival) {
                    case ADMITTED -> { } // counted when its job starts (started())
                    case REFUSED -> refused++;
                    case WAITING -> waitEnds.put(seat,
                            timer.schedule(() -> waitEnded(a.seat()), waitNanos, TimeUnit.NANOSECONDS));
                    default -> throw new IllegalStateException("an arrival ended " + seat);
                }
                displaced.ifPresent(d -> {
                    refused++;
                    stopWaitEnd(d);
                });
                afterChange();
            }
        } finally {
            lock.unlock();
        }
        displaced.ifPresent(d -> d.payload().refused(Refusal.FULL));
        // what the arrival decided, read under the lock: a waiting seat may be admitted by another thread any moment
        if (seat == null) {
            waiter.refused(Refusal.DRAINING);
        } else if (arrival == WaitingRoom.State.ADMITTED) {
            waiter.admitted(seat);
        } else if (arrival == WaitingRoom.State.REFUSED) {
            waiter.refused(Refusal.FULL);
        }
        return seat;
    }

    /**
     * Gives a slot back; called exactly once per admission. If anyone waits, the slot goes to the best waiter in the
     * same critical section, and that waiter is told after it.
     */
    void release(Seat<Waiter> slot) {
        Optional<Seat<Waiter>> next;
        lock.lock();
        try {
            next = room.free(slot);
            next.ifPresent(this::stopWaitEnd); // counted when its job starts (started())
            if (room.inUse() == 0) {
                idle.signalAll();
            }
            afterChange();
        } finally {
            lock.unlock();
        }
        next.ifPresent(n -> n.payload().admitted(n));
    }

    /**
     * The dial told {@link Waiter#admitted} starts its job and tells its client so: it counts as admitted. Counted
     * then, not when the slot is handed over, because a waiter whose client went away in between gives the slot back
     * unused, and a job that never ran is no admission.
     */
    void started() {
        lock.lock();
        try {
            admitted++;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A waiter's client went away: it leaves the room at once, and is told nothing.
     *
     * @return true if it was waiting; false if it had been admitted (it holds a slot its holder must give back),
     *     refused, or had left
     */
    boolean leave(Seat<Waiter> seat) {
        lock.lock();
        try {
            if (!room.leave(seat)) {
                return false;
            }
            stopWaitEnd(seat);
            afterChange();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The wait of {@code seat} ended before a slot freed: it is refused, as at arrival. */
    private void waitEnded(Seat<Waiter> seat) {
        lock.lock();
        try {
            if (!room.leave(seat)) {
                return; // admitted, displaced or gone a moment ago
            }
            waitEnds.remove(seat);
            refused++;
            afterChange();
        } finally {
            lock.unlock();
        }
        seat.payload().refused(Refusal.FULL);
    }

    /** Stops admitting, for good; the waiters are refused and the instance reports NOT_SERVING from now on. */
    void drain() {
        List<Seat<Waiter>> turnedAway;
        lock.lock();
        try {
            draining = true;
            turnedAway = room.refuseAll();
            turnedAway.forEach(this::stopWaitEnd);
            refused += turnedAway.size();
            health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.NOT_SERVING);
            afterChange();
        } finally {
            lock.unlock();
        }
        turnedAway.forEach(s -> s.payload().refused(Refusal.DRAINING));
    }

    /**
     * Waits until no slot is held, at most {@code timeout}.
     *
     * @return true if no slot is held
     */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lock();
        try {
            while (room.inUse() > 0) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = idle.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The slots held now. */
    int held() {
        lock.lock();
        try {
            return room.inUse();
        } finally {
            lock.unlock();
        }
    }

    /** The dials waiting now. */
    int waiting() {
        lock.lock();
        try {
            return room.waiting();
        } finally {
            lock.unlock();
        }
    }

    /** The slots. */
    int max() {
        return max;
    }

    /** Jobs admitted (whose job started) and dials refused (full, wait ended, displaced, or draining) so far. */
    long[] counts() {
        lock.lock();
        try {
            return new long[] {admitted, refused};
        } finally {
            lock.unlock();
        }
    }

    /** Called under the lock when {@code seat} leaves WAITING. */
    private void stopWaitEnd(Seat<Waiter> seat) {
        ScheduledFuture<?> f = waitEnds.remove(seat);
        if (f != null) {
            f.cancel(false);
        }
    }

    /** Called under the lock after every change: keeps {@code fullNow}, the pending check and the health in step. */
    private void afterChange() {
        boolean full = !draining && room.full();
        if (full != fullNow) {
            fullNow = full;
            long epoch = ++fullEpoch; // a check still pending for an earlier fill is void
            if (!full) {
                fullReported = false;
            } else if (fullForNanos == 0) {
                fullReported = true;
            } else {
                timer.schedule(() -> reportFull(epoch), fullForNanos, TimeUnit.NANOSECONDS);
            }
        }
        updateHealth();
    }

    /** The instance has stayed full since the change of {@code epoch}: say so. */
    private void reportFull(long epoch) {
        lock.lock();
        try {
            if (epoch == fullEpoch && fullNow) {
                fullReported = true;
                updateHealth();
            }
        } finally {
            lock.unlock();
        }
    }

    private void updateHealth() {
        boolean now = !draining && !fullReported;
        if (now != serving) {
            serving = now;
            health.setStatus(Tier2Protocol.SERVICE_NAME, now ? ServingStatus.SERVING : ServingStatus.NOT_SERVING);
        }
    }
}
