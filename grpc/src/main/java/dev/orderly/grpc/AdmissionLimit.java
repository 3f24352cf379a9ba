package dev.orderly.grpc;

import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A tier2's job slots: at most {@code max} jobs admitted at once, no queue (the tier1's launch queue is the queue), and
 * the instance's {@code grpc.health.v1} statuses kept in step. The load status (service
 * {@code orderly.tier2.v1.Tier2}, what health-checking clients watch) is NOT_SERVING while the instance is draining, or
 * has been full for {@code fullFor} (SERVING again the moment a slot frees), so clients stop sending it calls it
 * would refuse. Why not at once: an instance whose load matches its slots is full for a moment after every
 * admission, and a client that hears NOT_SERVING then fails its next dial itself (UNREACHABLE) although a slot frees
 * a moment later; docs/results/transport.md has the measurement. The overall status
 * (service {@code ""}, what liveness and readiness probes ask) is SERVING from start until the drain begins: being
 * busy never fails a probe.
 *
 * <h2>Invariants (all guarded by {@code lock})</h2>
 * <ul>
 *   <li>{@code 0 <= held <= max}; a slot is taken only in {@link #tryAcquire()}, in the same critical section that saw
 *       it free, and given back by {@link #release()}, which its caller ({@link ServerJob}) calls exactly once.
 *   <li>{@code draining} only turns true; once it is, nothing is admitted.
 *   <li>{@code fullReported} implies {@code held == max}: it is set only by the check {@code fullFor} after the
 *       admission that filled the instance, if no slot was given back since ({@code fullEpoch} unchanged), and
 *       cleared by every release.
 *   <li>{@code serving == !draining && !fullReported} after every method returns, and the health manager was last told
 *       {@code serving} for the load status: statuses are set under the lock, so two changes can not reach it out
 *       of order.
 *   <li>{@code idle} is signalled when {@code held} drops to 0.
 * </ul>
 * This class is thread-safe.
 */
final class AdmissionLimit {

    /** What {@link #tryAcquire()} decided. */
    enum Admission { ADMITTED, FULL, DRAINING }

    private final int max;
    private final HealthStatusManager health;
    private final ScheduledExecutorService timer;
    private final long fullForNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();

    // guarded by lock
    private int held;
    // guarded by lock
    private boolean draining;
    // guarded by lock
    private boolean serving;
    // guarded by lock
    private boolean fullReported;
    // guarded by lock
    private long fullEpoch;
    // guarded by lock
    private long admitted;
    // guarded by lock
    private long refused;

    /**
     * @param fullFor how long the instance must stay full before its load status says so (zero: at once)
     * @param timer runs that check
     */
    AdmissionLimit(int max, HealthStatusManager health, Duration fullFor, ScheduledExecutorService timer) {
        this.max = max;
        this.health = health;
        this.fullForNanos = fullFor.toNanos();
        this.timer = timer;
        this.serving = true; // max >= 1: a new instance has room
        health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.SERVING);
        health.setStatus(Tier2Protocol.SERVICE_NAME, ServingStatus.SERVING);
    }

    /** Takes a slot if one is free and the instance is not draining. */
    Admission tryAcquire() {
        lock.lock();
        try {
            if (draining) {
                refused++;
                return Admission.DRAINING;
            }
            if (held >= max) {
                refused++;
                return Admission.FULL;
            }
            held++;
            admitted++;
            if (held == max) {
                long epoch = ++fullEpoch;
                if (fullForNanos == 0) {
                    fullReported = true;
                } else {
                    timer.schedule(() -> reportFull(epoch), fullForNanos, TimeUnit.NANOSECONDS);
                }
            }
            updateHealth();
            return Admission.ADMITTED;
        } finally {
            lock.unlock();
        }
    }

    /** Gives a slot back; called exactly once per admission. */
    void release() {
        lock.lock();
        try {
            if (held <= 0) {
                throw new IllegalStateException("released a slot that was not held");
            }
            held--;
            fullEpoch++; // a check still pending for the admission that filled the instance is void
            fullReported = false;
            if (held == 0) {
                idle.signalAll();
            }
            updateHealth();
        } finally {
            lock.unlock();
        }
    }

    /** Stops admitting, for good; the instance reports NOT_SERVING from now on. */
    void drain() {
        lock.lock();
        try {
            draining = true;
            health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.NOT_SERVING);
            updateHealth();
        } finally {
            lock.unlock();
        }
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
            while (held > 0) {
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
            return held;
        } finally {
            lock.unlock();
        }
    }

    /** Jobs admitted and dials refused (full or draining) so far. */
    long[] counts() {
        lock.lock();
        try {
            return new long[] {admitted, refused};
        } finally {
            lock.unlock();
        }
    }

    /** The instance has stayed full since the admission of {@code epoch}: say so. */
    private void reportFull(long epoch) {
        lock.lock();
        try {
            if (epoch == fullEpoch && held >= max) {
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
