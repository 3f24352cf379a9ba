package dev.orderly.api;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What one request did.
 *
 * <p>A request that delivered nothing has no first segment: its {@code timeToFirstSegment} is the sentinel
 * {@link #NO_FIRST_SEGMENT} (a negative duration, never a real time), so it can not be mistaken for an instant first
 * segment. {@link #firstSegment()} says the same as an {@code Optional}; prefer it.
 *
 * @param segmentsDelivered segments handed to the client
 * @param admissions dials a tier2 took
 * @param dials dials, admitted or not
 * @param refusals dials refused or unreachable (not counted against the job)
 * @param failures times a job got in and failed with a retryable error (a unit that failed three times counts 3)
 * @param executionTimeouts times a job got in and ran past its deadline
 * @param reruns re-runs of a segment whose output was missing after success (a segment re-run twice counts 2; with
 *     resume, one found in the store and missing at its read counts too)
 * @param timeToFirstSegment from the start of the request to the first segment delivered, or
 *     {@link #NO_FIRST_SEGMENT} when none was
 * @param elapsed from the start of the request to the last segment delivered, for a request that delivered every
 *     segment; to its failure or cancellation for one that did not
 */
public record RequestResult(
        long segmentsDelivered,
        long admissions,
        long dials,
        long refusals,
        long failures,
        long executionTimeouts,
        long reruns,
        Duration timeToFirstSegment,
        Duration elapsed) {

    /**
     * The {@code timeToFirstSegment} of a request that delivered nothing: one nanosecond before the start, a time no
     * delivery can have.
     */
    public static final Duration NO_FIRST_SEGMENT = Duration.ofNanos(-1);

    /**
     * @throws NullPointerException if a duration is null
     * @throws IllegalArgumentException if a count or {@code elapsed} is negative, or {@code timeToFirstSegment} is
     *     negative but not {@link #NO_FIRST_SEGMENT}
     */
    public RequestResult {
        Objects.requireNonNull(timeToFirstSegment, "timeToFirstSegment");
        Objects.requireNonNull(elapsed, "elapsed");
        if (timeToFirstSegment.isNegative() && !timeToFirstSegment.equals(NO_FIRST_SEGMENT)) {
            throw new IllegalArgumentException("timeToFirstSegment must be >= 0 or NO_FIRST_SEGMENT, was "
                    + timeToFirstSegment);
        }
        if (elapsed.isNegative()) {
            throw new IllegalArgumentException("elapsed must be >= 0, was " + elapsed);
        }
        requireNonNegative("segmentsDelivered", segmentsDelivered);
        requireNonNegative("admissions", admissions);
        requireNonNegative("dials", dials);
        requireNonNegative("refusals", refusals);
        requireNonNegative("failures", failures);
        requireNonNegative("executionTimeouts", executionTimeouts);
        requireNonNegative("reruns", reruns);
    }

    /** The time from the start of the request to its first segment delivered; empty when none was. */
    public Optional<Duration> firstSegment() {
        return timeToFirstSegment.equals(NO_FIRST_SEGMENT) ? Optional.empty() : Optional.of(timeToFirstSegment);
    }

    private static void requireNonNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must be >= 0, was " + value);
        }
    }
}
