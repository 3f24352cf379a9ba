package dev.orderly.api;

import java.util.Objects;

/**
 * What a tier2 is asked to run: one unit of one request, on a given attempt, and how soon the request's client needs
 * it.
 *
 * @param requestId the id of the request the unit belongs to
 * @param key the unit
 * @param attempt the dial count of this unit, from 1; every dial, refused or not, counts (it stays at
 *     {@code Integer.MAX_VALUE} once there)
 * @param readingSegment the segment the request's client waited for when the job dialed, between 0 and
 *     {@code key.segment()}: a job is dialed only for a segment the client has not read yet, so its {@link #rank()}
 *     is never negative. A tier2 with a waiting room weighs ranks across tenants (which waiter a full room turns
 *     away); within one request it hands freed slots to the lowest segment, since a rank is as old as its dial.
 * @param stages the request's stage count, 0 when not known: a tier2 that writes the jobs' outputs needs it to tell
 *     the last stage, whose output the request's client reads, from the stages below it, whose writes would go to the
 *     segment's same place. The engine sets it on every job it dials, so a client that passes the job on (a wrapper
 *     that counts or logs dials) passes the count on too.
 */
public record Job(String requestId, JobKey key, int attempt, long readingSegment, int stages) {

    /**
     * @throws NullPointerException if {@code requestId} or {@code key} is null
     * @throws IllegalArgumentException if {@code attempt < 1}, {@code readingSegment} is negative or past
     *     {@code key.segment()}, {@code stages} is negative, or positive and not above {@code key.stage()}
     */
    public Job {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(key, "key");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be >= 1, was " + attempt);
        }
        if (readingSegment < 0 || readingSegment > key.segment()) {
            throw new IllegalArgumentException("readingSegment must be between 0 and the job's segment "
                    + key.segment() + ", was " + readingSegment);
        }
        if (stages < 0 || (stages > 0 && key.stage() >= stages)) {
            throw new IllegalArgumentException("stages must be 0 (not known) or above the job's stage " + key.stage()
                    + ", was " + stages);
        }
    }

    /**
     * A job of a request whose stage count is not said ({@code stages = 0}): a tier2 then takes every stage's output.
     *
     * @throws NullPointerException if {@code requestId} or {@code key} is null
     * @throws IllegalArgumentException if {@code attempt < 1}, or {@code readingSegment} is negative or past
     *     {@code key.segment()}
     */
    public Job(String requestId, JobKey key, int attempt, long readingSegment) {
        this(requestId, key, attempt, readingSegment, 0);
    }

    /**
     * A job whose client waits for its own segment ({@code readingSegment = key.segment()}, rank 0) and whose request's
     * stage count is not said: what a caller that knows nothing of the client's position means.
     *
     * @throws NullPointerException if {@code requestId} or {@code key} is null
     * @throws IllegalArgumentException if {@code attempt < 1}
     */
    public Job(String requestId, JobKey key, int attempt) {
        this(requestId, key, attempt, Objects.requireNonNull(key, "key").segment(), 0);
    }

    /** How far ahead of its client the job is: {@code key.segment() - readingSegment}, 0 for the segment it reads. */
    public long rank() {
        return key.segment() - readingSegment;
    }
}
