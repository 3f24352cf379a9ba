package dev.orderly.api;

/**
 * The shape of one request: the segments {@code [startSegment, endSegment)}, the number of stages per segment,
 * and the number of workers (the most jobs of this request alive at once).
 *
 * <p>The bounds below are the plan's own. The engine checks the plan again when it runs: Orderly's engine refuses more
 * than 65,536 stages, and a {@code workers} whose look-ahead {@code ceil(lookaheadFactor * workers)} is over 2^20
 * segments (at the default factor of 2, more than 524,288 workers); see {@link Engine#run}.
 *
 * @param startSegment first segment, inclusive, {@code >= 0}
 * @param endSegment last segment, exclusive, {@code > startSegment}
 * @param stages stages per segment, {@code >= 1}; stage {@code stages - 1} produces the output the client reads
 * @param workers at most this many jobs of the request are alive at once, {@code >= 1}
 */
public record RequestPlan(long startSegment, long endSegment, int stages, int workers) {

    /**
     * @throws IllegalArgumentException naming the field and the value when any bound is broken
     */
    public RequestPlan {
        if (startSegment < 0) {
            throw new IllegalArgumentException("startSegment must be >= 0, was " + startSegment);
        }
        if (endSegment <= startSegment) {
            throw new IllegalArgumentException(
                    "endSegment must be > startSegment (" + startSegment + "), was " + endSegment);
        }
        if (stages < 1) {
            throw new IllegalArgumentException("stages must be >= 1, was " + stages);
        }
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be >= 1, was " + workers);
        }
    }

    /** Returns the number of segments, {@code endSegment - startSegment}. */
    public long segmentCount() {
        return endSegment - startSegment;
    }

    /** Returns the stage whose output the client reads, {@code stages - 1}. */
    public int lastStage() {
        return stages - 1;
    }
}
