package dev.orderly.engine.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.engine.DialGate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The unordered baseline: no queue and no window. A job that was never refused and never failed dials at once; a
 * refused one waits {@code refusedDelay}, a failed one {@code failureDelay}, each on its own, whatever the other jobs
 * of the request do.
 *
 * <p>The delay is a timed wait on a condition that is never signalled, so it costs no CPU and ends early only when
 * the thread is interrupted (the request was cancelled).
 *
 * <p>Invariants: {@code notBefore} holds an entry only for a job between a refusal or failure and its next admission
 * or end, in the gate's clock ({@code nanoTime}, {@code System::nanoTime} but in tests); it is a concurrent map (each
 * key is touched by its own job only). {@code lock} guards no state: it exists for the timed waits on {@code never}.
 * This class is thread-safe.
 */
final class DelayGate implements DialGate {

    private final long refusedDelayNanos;
    private final long failureDelayNanos;
    private final LongSupplier nanoTime;
    private final Map<JobKey, Long> notBefore = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition never = lock.newCondition();

    DelayGate(EngineConfig config) {
        this(config, System::nanoTime);
    }

    /**
     * A gate that reads not-before times from {@code nanoTime}, for tests that decide what time it is. Waits still
     * take real time: a timed wait ends when the real delay has passed and then reads {@code nanoTime} again.
     */
    DelayGate(EngineConfig config, LongSupplier nanoTime) {
        this.refusedDelayNanos = config.refusedDelay().toNanos();
        this.failureDelayNanos = config.failureDelay().toNanos();
        this.nanoTime = nanoTime;
    }

    @Override
    public void awaitTurn(JobKey key) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Long until = notBefore.get(key);
        if (until == null) {
            return;
        }
        lock.lock();
        try {
            awaitUntil(until);
        } finally {
            lock.unlock();
        }
    }

    /** Waits, costing no CPU, until {@code until} on the gate's clock, or throws when interrupted. */
    @GuardedBy("lock")
    private void awaitUntil(long until) throws InterruptedException {
        assert lock.isHeldByCurrentThread();
        long wait;
        while ((wait = until - nanoTime.getAsLong()) > 0) {
            never.awaitNanos(wait);
        }
    }

    @Override
    public void refused(JobKey key) {
        notBefore.put(key, nanoTime.getAsLong() + refusedDelayNanos);
    }

    @Override
    public void failed(JobKey key) {
        notBefore.put(key, nanoTime.getAsLong() + failureDelayNanos);
    }

    @Override
    public void leave(JobKey key) {
        notBefore.remove(key);
    }

    @Override
    public String toString() {
        return "DelayGate[refusedDelay=" + TimeUnit.NANOSECONDS.toMillis(refusedDelayNanos) + "ms, failureDelay="
                + TimeUnit.NANOSECONDS.toMillis(failureDelayNanos) + "ms]";
    }
}
