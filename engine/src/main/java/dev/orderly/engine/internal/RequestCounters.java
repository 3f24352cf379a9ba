package dev.orderly.engine.internal;

import dev.orderly.api.RequestResult;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The figures of one request, bumped by its jobs and its walker at once. Thread-safe: each figure is an atomic
 * of its own; a {@linkplain #result() snapshot} read while jobs run is not atomic across figures.
 */
final class RequestCounters {

    private final long startNanos = System.nanoTime();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder admissions = new LongAdder();
    private final LongAdder dials = new LongAdder();
    private final LongAdder refusals = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder executionTimeouts = new LongAdder();
    private final LongAdder reruns = new LongAdder();
    private final LongAdder fromStore = new LongAdder();
    private final AtomicLong firstDeliveryNanos = new AtomicLong(-1);
    private final AtomicLong lastDeliveryNanos = new AtomicLong(-1);

    void dial() {
        dials.increment();
    }

    void admission() {
        admissions.increment();
    }

    void refusal() {
        refusals.increment();
    }

    void failure() {
        failures.increment();
    }

    void executionTimeout() {
        executionTimeouts.increment();
    }

    void rerun() {
        reruns.increment();
    }

    /** With resume: a segment found in the store, to be delivered from it instead of run. */
    void fromStore() {
        fromStore.increment();
    }

    /** Segments found in the store so far (resume). Not part of {@link RequestResult}. */
    long foundInStore() {
        return fromStore.sum();
    }

    void delivered() {
        long now = System.nanoTime() - startNanos;
        firstDeliveryNanos.compareAndSet(-1, now);
        lastDeliveryNanos.set(now);
        delivered.increment();
    }

    private Duration sinceStart() {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    /**
     * The figures so far; {@code elapsed} is the time to the last delivery, or the time so far when nothing was
     * delivered yet.
     */
    RequestResult result() {
        long first = firstDeliveryNanos.get();
        long last = lastDeliveryNanos.get();
        Duration sinceStart = sinceStart();
        return new RequestResult(delivered.sum(), admissions.sum(), dials.sum(), refusals.sum(), failures.sum(),
                executionTimeouts.sum(), reruns.sum(),
                first < 0 ? Duration.ZERO : Duration.ofNanos(first),
                last < 0 ? sinceStart : Duration.ofNanos(last));
    }
}
