package dev.orderly.api;

import java.util.Objects;

/**
 * What a tier2 is asked to run: one unit of one request, on a given attempt.
 *
 * @param requestId the id of the request the unit belongs to
 * @param key the unit
 * @param attempt the dial count of this unit, from 1; every dial, refused or not, counts
 */
public record Job(String requestId, JobKey key, int attempt) {

    /**
     * @throws NullPointerException if {@code requestId} or {@code key} is null
     * @throws IllegalArgumentException if {@code attempt < 1}
     */
    public Job {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(key, "key");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be >= 1, was " + attempt);
        }
    }
}
