package dev.orderly.engine.internal;

import dev.orderly.api.RequestResult;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The figures of one request, bumped by its jobs and its walker at once. Thread-safe; a {@linkplain #result()
 * snapshot} read while jobs run is not atomic across figures.
 *
 * <p>The figures every job bumps (its dial, and a refusal, which comes in floods) are {@link LongAdder}s, so jobs on
 * different cores do not contend for one word. A timeout or a failure is rare: a volatile field, bumped atomically.
 * The walker's figures (deliveries and their times, re-runs, segments delivered from the store) have one writer, the
 * walker: plain volatile writes, read by whichever thread takes a snapshot. A request with no trouble so makes three
 * adders and no other object for its figures.
 */
final class RequestCounters {

    private static final VarHandle FAILURES;
    private static final VarHandle EXECUTION_TIMEOUTS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            FAILURES = lookup.findVarHandle(RequestCounters.class, "failures", long.class);
            EXECUTION_TIMEOUTS = lookup.findVarHandle(RequestCounters.class, "executionTimeouts", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final LongSupplier nanoTime;
    private final long startNanos;
    // A dial is counted once, when it returns: a dial that got in is also the admission, so the common path bumps
    // one figure, not two (each bump of a figure the other core bumped last costs a cache-line transfer).
    private final LongAdder admittedDials = new LongAdder();
    private final LongAdder otherDials = new LongAdder();
    private final LongAdder refusals = new LongAdder();
    // bumped by any job, through FAILURES and EXECUTION_TIMEOUTS
    private volatile long failures;
    private volatile long executionTimeouts;
    // written by the walker only
    private volatile long delivered;
    private volatile long reruns;
    private volatile long fromStore;
    private volatile long firstDeliveryNanos = -1;
    private volatile long lastDeliveryNanos = -1;

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
        FAILURES.getAndAdd(this, 1L);
    }

    void executionTimeout() {
        EXECUTION_TIMEOUTS.getAndAdd(this, 1L);
    }

    /** The walker re-runs the client's segment. */
    void rerun() {
        reruns = reruns + 1;
    }

    /** With resume: a segment delivered from the store, none of its jobs run. */
    void fromStore() {
        fromStore = fromStore + 1;
    }

    /**
     * Segments delivered from the store so far (resume), never more than those delivered: one looked up ahead of the
     * client and not delivered is not counted. Not part of {@link RequestResult}.
     */
    long foundInStore() {
        return fromStore;
    }

    /**
     * The walker delivered a segment, the request's {@code last} or not. The clock is read at the first delivery and
     * at the last only: a read costs ~25 ns, a few percent of an instant job's whole cost in the engine.
     */
    void delivered(boolean last) {
        boolean first = firstDeliveryNanos < 0;
        if (first || last) {
            long now = nanoTime.getAsLong() - startNanos;
            if (first) {
                firstDeliveryNanos = now;
            }
            if (last) {
                lastDeliveryNanos = now;
            }
        }
        delivered = delivered + 1;
    }

    /** Whether the request's last segment was delivered, and so every segment. */
    boolean deliveredAll() {
        return lastDeliveryNanos >= 0;
    }

    private Duration sinceStart() {
        return Duration.ofNanos(nanoTime.getAsLong() - startNanos);
    }

    /**
     * The figures of a request that delivered every segment: {@code elapsed} is the time to the last segment's
     * delivery (the time so far when the last segment is not delivered yet). {@code timeToFirstSegment} is
     * {@link RequestResult#NO_FIRST_SEGMENT} until the first delivery.
     */
    RequestResult result() {
        long last = lastDeliveryNanos;
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
        long first = firstDeliveryNanos;
        return new RequestResult(delivered, admittedDials.sum(), dials(), refusals.sum(), failures,
                executionTimeouts, reruns,
                first < 0 ? RequestResult.NO_FIRST_SEGMENT : Duration.ofNanos(first), elapsed);
    }
}
