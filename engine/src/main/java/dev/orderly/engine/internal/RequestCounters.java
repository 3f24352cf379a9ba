package dev.orderly.engine.internal;

import dev.orderly.api.RequestResult;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The figures of one request, bumped by its jobs and its walker at once. Thread-safe: each figure is an atomic
 * of its own; a {@linkplain #result() snapshot} read while jobs run is not atomic across figures.
 */
final class RequestCounters {

    private final LongSupplier nanoTime;
    private final long startNanos;
    private final LongAdder delivered = new LongAdder();
    // A dial is counted once, when it returns: a dial that got in is also the admission, so the common path bumps
    // one figure, not two (each bump of a figure the other core bumped last costs a cache-line transfer).
    private final LongAdder admittedDials = new LongAdder();
    private final LongAdder otherDials = new LongAdder();
    private final LongAdder refusals = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder executionTimeouts = new LongAdder();
    private final LongAdder reruns = new LongAdder();
    private final LongAdder fromStore = new LongAdder();
    private final AtomicLong firstDeliveryNanos = new AtomicLong(-1);
    private final AtomicLong lastDeliveryNanos = new AtomicLong(-1);

    RequestCounters() {
        this(System::nanoTime);
    }

    /** Figures timed on {@code nanoTime}, for tests that decide what time it is. */
    RequestCounters(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.startNanos = nanoTime.getAsLong();
    }

    /** A dial returned with a call: the tier2 took the job (one dial and one admission). */
    void dialAdmitted() {
        admittedDials.increment();
    }

    /** A dial ended without a call: refused, failed, or cut short. */
    void dialNotAdmitted() {
        otherDials.increment();
    }

    /** Dials that have returned so far (a dial in flight is counted when it returns). */
    long dials() {
        return admittedDials.sum() + otherDials.sum();
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
        long now = nanoTime.getAsLong() - startNanos;
        firstDeliveryNanos.compareAndSet(-1, now);
        lastDeliveryNanos.set(now);
        delivered.increment();
    }

    private Duration sinceStart() {
        return Duration.ofNanos(nanoTime.getAsLong() - startNanos);
    }

    /**
     * The figures of a request that delivered every segment: {@code elapsed} is the time to the last delivery (the
     * time so far when nothing was delivered yet). {@code timeToFirstSegment} is
     * {@link RequestResult#NO_FIRST_SEGMENT} until the first delivery.
     */
    RequestResult result() {
        long last = lastDeliveryNanos.get();
        return snapshot(last < 0 ? sinceStart() : Duration.ofNanos(last));
    }

    /**
     * The figures of a request that ends now without delivering everything (it failed or was cancelled):
     * {@code elapsed} runs to now, the end of the request, not to its last delivery. Take it once, and hand the same
     * snapshot to the listener and to the caller.
     */
    RequestResult resultSoFar() {
        return snapshot(sinceStart());
    }

    private RequestResult snapshot(Duration elapsed) {
        long first = firstDeliveryNanos.get();
        return new RequestResult(delivered.sum(), admittedDials.sum(), dials(), refusals.sum(), failures.sum(),
                executionTimeouts.sum(), reruns.sum(),
                first < 0 ? RequestResult.NO_FIRST_SEGMENT : Duration.ofNanos(first), elapsed);
    }
}
