package dev.orderly.engine.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine-wide job cap ({@code EngineConfig.maxConcurrentJobs}) of one engine: at most {@code limit} jobs alive
 * at once across all its requests, shared fairly. The rule (who holds what, who gets a freed permit) is
 * {@link JobShares}; this class only locks, waits and wakes the request the rule names. This class is thread-safe.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>{@code shares} is guarded by {@code lock}; so is every {@link JobShares.Seat} in it. The invariants of
 *       {@link JobShares} hold whenever {@code lock} is free: never more than {@code limit} permits held, and nobody
 *       waits while one is free.
 *   <li>Each request has one {@link Permits} with its own condition, {@code turn}, on {@code lock}; only that
 *       request's owner thread (the one that forks its jobs) waits on it, in {@link Permits#awaitPermit}. So a
 *       hand-over signals exactly the one thread that can use it: no herd, and no wake-up for anyone else.
 *   <li>No wake-up is lost: the owner registers its wish in {@link Permits#take} and re-checks, under {@code lock},
 *       before it waits; every change that ends its wait (a hand-over, its wish withdrawn, its close) happens under
 *       {@code lock} and signals its {@code turn}.
 *   <li>{@code lock} is the innermost lock of the engine: a request's scheduler calls in while holding its own lock,
 *       and nothing here calls out. A hand-over to another request only signals that request's condition.
 * </ul>
 */
final class EngineJobCap {

    private final ReentrantLock lock = new ReentrantLock();
    @GuardedBy("lock")
    private final JobShares shares;

    /** A cap of {@code limit} alive jobs, {@code >= 1}. */
    EngineJobCap(int limit) {
        this.shares = new JobShares(limit, lock);
    }

    /** The permits of a new request, {@code requestId}; close them when the request ends. */
    JobPermits join(String requestId) {
        lock.lock();
        try {
            return new Permits(shares.join(requestId));
        } finally {
            lock.unlock();
        }
    }

    /** The cap. */
    int limit() {
        lock.lock();
        try {
            return shares.limit();
        } finally {
            lock.unlock();
        }
    }

    /** Diagnostic: the jobs alive now across every request of the engine (permits held), never more than the cap. */
    int alive() {
        lock.lock();
        try {
            return shares.alive();
        } finally {
            lock.unlock();
        }
    }

    /** Diagnostic: the requests waiting for a permit now. */
    int waiting() {
        lock.lock();
        try {
            return shares.waiting();
        } finally {
            lock.unlock();
        }
    }

    /** Diagnostic: each request's permits now, by request id; one snapshot, taken under the lock. */
    Map<String, Integer> heldByRequest() {
        Map<String, Integer> held = new java.util.HashMap<>();
        shares().forEach((id, share) -> held.put(id, share.held()));
        return held;
    }

    /** Diagnostic: each request's permits and whether it waits, by request id; one snapshot, under the lock. */
    Map<String, JobShares.Share> shares() {
        lock.lock();
        try {
            return shares.shares();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        lock.lock();
        try {
            return shares.toString();
        } finally {
            lock.unlock();
        }
    }

    /** Under {@code lock}: wakes the owner of the seat a permit was handed to, if any. */
    private static void wake(JobShares.Seat handedTo) {
        if (handedTo != null) {
            handedTo.turn.signal();
        }
    }

    private final class Permits implements JobPermits {
        private final JobShares.Seat seat;

        Permits(JobShares.Seat seat) {
            this.seat = seat;
            seat.turn = lock.newCondition();
        }

        @Override
        public boolean take() {
            lock.lock();
            try {
                return shares.take(seat);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void awaitPermit() throws InterruptedException {
            lock.lock();
            try {
                while (shares.isWaiting(seat)) {
                    seat.turn.await();
                }
            } catch (InterruptedException e) {
                // It leaves the waiting; a permit handed to it in the meantime must not be lost to the others.
                wake(shares.withdraw(seat));
                throw e;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void withdraw() {
            lock.lock();
            try {
                wake(shares.withdraw(seat));
                seat.turn.signal();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void release(boolean wantsAnother) {
            lock.lock();
            try {
                wake(shares.release(seat, wantsAnother));
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void keep() {
            lock.lock();
            try {
                wake(shares.keep(seat));
                seat.turn.signal();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean wouldWait() {
            lock.lock();
            try {
                return shares.wouldWait(seat);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void close() {
            lock.lock();
            try {
                wake(shares.close(seat));
                seat.turn.signal();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public String toString() {
            return "engine-wide job cap of " + limit();
        }
    }
}
