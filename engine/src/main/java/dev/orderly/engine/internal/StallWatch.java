package dev.orderly.engine.internal;

import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices a request that only ever hears "no": nothing but REFUSED or UNREACHABLE for {@code stallWarning}, from the
 * request's first dial or from the first "no" after its last dial that got in (what held it back before its first
 * dial, a wait for a place under the engine-wide job cap or its store look-ups, is no "no"). It then logs one WARN,
 * once per request, naming the last status and how many dials the request has made (a wrong target otherwise hangs
 * {@code run} in silence). It also keeps the last {@link Tier2Exception} of the request, the cause of a deadline
 * failure.
 *
 * <p>Checked when a refusal comes in, so it needs no timer: a request that hears "no" hears it every
 * {@code refusedDelay}. An admission only sets {@code heardYes}, and only when it is clear: with every dial getting
 * in, jobs on different cores read it and never write it, and read no clock; the first "no" after it starts the
 * count. Thread-safe: each field is a volatile or an atomic of its own, and a "no" that clears {@code heardYes} has
 * set {@code noSinceNanos} first, so one that sees it clear sees the count's start; only the thread that flips
 * {@code warned} logs.
 */
final class StallWatch {

    private static final Logger LOG = LoggerFactory.getLogger(StallWatch.class);

    private final String requestId;
    private final long warnAfterNanos;
    private final LongSupplier nanoTime;
    private volatile long noSinceNanos;
    private final AtomicBoolean warned = new AtomicBoolean();
    private volatile boolean heardYes;
    // False until a job of the request first dials; that dial starts the count (noSinceNanos is written first).
    private volatile boolean dialed;
    private volatile Tier2Exception last;

    StallWatch(String requestId, Duration stallWarning) {
        this(requestId, stallWarning, System::nanoTime);
    }

    /** A watch on the clock {@code nanoTime}, for tests that decide what time it is. */
    StallWatch(String requestId, Duration stallWarning, LongSupplier nanoTime) {
        this.requestId = requestId;
        this.warnAfterNanos = saturatedNanos(stallWarning);
        this.nanoTime = nanoTime;
        this.noSinceNanos = nanoTime.getAsLong();
    }

    /**
     * A job of the request is about to dial: the request's first dial starts the count of "no". Whatever held the
     * request back before it (a wait for a place under the engine-wide job cap, its store look-ups) is not a "no".
     */
    void dialing() {
        if (!dialed) {
            noSinceNanos = nanoTime.getAsLong();
            dialed = true;
        }
    }

    /** A dial got in: the run of "no" is over; the next "no" starts a new one. */
    void admitted() {
        if (!heardYes) {
            heardYes = true;
        }
    }

    /**
     * The job heard {@code e}; {@code dials} is the request's dial count so far. A refusal past {@code stallWarning}
     * of nothing but refusals logs the WARN, once.
     */
    void heard(Tier2Exception e, long dials) {
        last = e;
        if (!e.neverRan()) {
            // The job got in (and then failed): not a "no".
            admitted();
            return;
        }
        long now = nanoTime.getAsLong();
        if (heardYes) {
            noSinceNanos = now;
            heardYes = false;
        }
        long silentNanos = now - noSinceNanos;
        if (silentNanos >= warnAfterNanos && warned.compareAndSet(false, true)) {
            LOG.warn("request {} has heard nothing but REFUSED/UNREACHABLE for {} ms: {} dial(s), the last {}: {}"
                    + " (is the tier2 address right, the fleet up?)", requestId,
                    Duration.ofNanos(silentNanos).toMillis(), dials, e.kind(), e.getMessage());
        }
    }

    /** The last {@link Tier2Exception} any job of the request heard, or null. */
    Tier2Exception last() {
        return last;
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
