package dev.orderly.api;

/**
 * One unit of work: a {@code (segment, stage)} pair. A job runs one unit on one tier2.
 *
 * <p>The natural order is the <em>launch order</em>: the lowest segment first and, within a segment, the
 * highest stage first (the job of the highest stage also produces the partials of the stages under it).
 *
 * @param segment the segment, {@code >= 0}
 * @param stage the stage, {@code >= 0}
 */
public record JobKey(long segment, int stage) implements Comparable<JobKey> {

    /**
     * @throws IllegalArgumentException if {@code segment} or {@code stage} is negative
     */
    public JobKey {
        if (segment < 0) {
            throw new IllegalArgumentException("segment must be >= 0, was " + segment);
        }
        if (stage < 0) {
            throw new IllegalArgumentException("stage must be >= 0, was " + stage);
        }
    }

    /**
     * Compares in launch order: lower segment first, then higher stage.
     */
    @Override
    public int compareTo(JobKey other) {
        int bySegment = Long.compare(segment, other.segment);
        return bySegment != 0 ? bySegment : Integer.compare(other.stage, stage);
    }

    /** Returns {@code segment N stage K}, the form used in every log line and error message. */
    @Override
    public String toString() {
        return "segment " + segment + " stage " + stage;
    }
}
