package dev.orderly.engine.internal;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A request's deadline, fixed when the request starts: a point on the {@link System#nanoTime()} clock (or a test's
 * clock), or none. Immutable and thread-safe.
 */
final class Deadline {

    private static final Deadline NONE = new Deadline(null, 0, System::nanoTime);

    private final Duration length;
    private final long atNanos;
    private final LongSupplier nanoTime;

    private Deadline(Duration length, long atNanos, LongSupplier nanoTime) {
        this.length = length;
        this.atNanos = atNanos;
        this.nanoTime = nanoTime;
    }

    /** {@code length} from now, or no deadline when {@code length} is null. */
    static Deadline after(Duration length) {
        return after(length, System::nanoTime);
    }

    /** {@code length} from now on the clock {@code nanoTime}, for tests that decide what time it is. */
    static Deadline after(Duration length, LongSupplier nanoTime) {
        if (length == null) {
            return NONE;
        }
        // A deadline beyond ~292 years does not fit the nano clock: it is as good as none.
        long nanos;
        try {
            nanos = length.toNanos();
        } catch (ArithmeticException e) {
            return NONE;
        }
        return new Deadline(length, nanoTime.getAsLong() + nanos, nanoTime);
    }

    boolean isSet() {
        return length != null;
    }

    /** Nanoseconds left, {@code <= 0} once passed; {@link Long#MAX_VALUE} when there is no deadline. */
    long remainingNanos() {
        return length == null ? Long.MAX_VALUE : atNanos - nanoTime.getAsLong();
    }

    /** The deadline as set, in the short form people write it: {@code 30s}, {@code 250ms}, {@code 2m30s}. */
    @Override
    public String toString() {
        if (length == null) {
            return "none";
        }
        if (length.toNanosPart() % 1_000_000 != 0 || length.toSeconds() == 0 && length.toMillisPart() == 0) {
            return length.toString();
        }
        StringBuilder text = new StringBuilder();
        long hours = length.toHours();
        if (hours > 0) {
            text.append(hours).append('h');
        }
        if (length.toMinutesPart() > 0) {
            text.append(length.toMinutesPart()).append('m');
        }
        if (length.toSecondsPart() > 0) {
            text.append(length.toSecondsPart()).append('s');
        }
        if (length.toMillisPart() > 0) {
            text.append(length.toMillisPart()).append("ms");
        }
        return text.toString();
    }
}
