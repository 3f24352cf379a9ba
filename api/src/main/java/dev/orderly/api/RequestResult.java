package dev.orderly.api;

import java.time.Duration;
import java.util.Objects;

/**
 * What one request did.
 *
 * @param segmentsDelivered segments handed to the client
 * @param admissions dials a tier2 took
 * @param dials dials, admitted or not
 * @param refusals dials refused or unreachable (not counted against the job)
 * @param failures jobs that got in and failed with a retryable error
 * @param executionTimeouts jobs that got in and ran past their deadline
 * @param reruns segments re-run because their output was missing after success
 * @param timeToFirstSegment from the start of the request to the first segment delivered
 * @param elapsed from the start of the request to the last segment delivered
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
     * @throws NullPointerException if a duration is null
     * @throws IllegalArgumentException if a count is negative
     */
    public RequestResult {
        Objects.requireNonNull(timeToFirstSegment, "timeToFirstSegment");
        Objects.requireNonNull(elapsed, "elapsed");
        requireNonNegative("segmentsDelivered", segmentsDelivered);
        requireNonNegative("admissions", admissions);
        requireNonNegative("dials", dials);
        requireNonNegative("refusals", refusals);
        requireNonNegative("failures", failures);
        requireNonNegative("executionTimeouts", executionTimeouts);
        requireNonNegative("reruns", reruns);
    }

    private static void requireNonNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must be >= 0, was " + value);
        }
    }
}
