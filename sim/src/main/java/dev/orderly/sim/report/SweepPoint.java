package dev.orderly.sim.report;

import java.util.Objects;

/**
 * One point of a sweep: a job duration (as a multiple of the refused delay) and a fleet fullness (workers wanted per
 * slot), and the rows of the strategies run there on the same fleet and seed.
 *
 * @param jobPerRefusedDelay median job duration divided by the refused delay
 * @param fullness the tenants' workers divided by the fleet's slots: 0.5 is half full, 4 is 4x oversubscribed
 * @param ordered ordered launch's row
 * @param unordered the unordered baseline's row
 * @param oracle the oracle's row
 * @param waiting the row of ordered launch with the fleet's waiting room, or null when the sweep ran without one
 */
public record SweepPoint(double jobPerRefusedDelay, double fullness, StrategyMetrics ordered,
                         StrategyMetrics unordered, StrategyMetrics oracle, StrategyMetrics waiting) {

    /** A point of a sweep without the waiting room. */
    public SweepPoint(double jobPerRefusedDelay, double fullness, StrategyMetrics ordered, StrategyMetrics unordered,
                      StrategyMetrics oracle) {
        this(jobPerRefusedDelay, fullness, ordered, unordered, oracle, null);
    }

    /** @throws NullPointerException naming the row that is null */
    public SweepPoint {
        Objects.requireNonNull(ordered, "ordered");
        Objects.requireNonNull(unordered, "unordered");
        Objects.requireNonNull(oracle, "oracle");
    }

    /** The measures a sweep compares, each read from a row. */
    public enum Measure {
        /** Mean over segments of start to delivery. */
        MEAN_DELIVERY("mean delivery"),
        /** Mean over tenants of start to first segment. */
        FIRST_SEGMENT("first segment"),
        /** Start to the last segment delivered. */
        TOTAL("total");

        private final String label;

        Measure(String label) {
            this.label = label;
        }

        /** The measure's name in the table and the chart. */
        public String label() {
            return label;
        }

        /** This measure of {@code row}, in simulated seconds. */
        public double of(StrategyMetrics row) {
            return switch (this) {
                case MEAN_DELIVERY -> row.meanDelivery();
                case FIRST_SEGMENT -> row.firstSegment();
                case TOTAL -> row.total();
            };
        }
    }

    /** {@code measure} of ordered launch divided by the baseline's: under 1, ordered launch wins. */
    public double orderedOverUnordered(Measure measure) {
        return measure.of(ordered) / measure.of(unordered);
    }

    /** {@code measure} of ordered launch divided by the oracle's: how far from the limit it is (1 is the limit). */
    public double orderedOverOracle(Measure measure) {
        return measure.of(ordered) / measure.of(oracle);
    }

    /**
     * {@code measure} of ordered launch with the waiting room divided by the oracle's (1 is the limit); NaN when the
     * sweep ran without the room.
     */
    public double waitingOverOracle(Measure measure) {
        return waiting == null ? Double.NaN : measure.of(waiting) / measure.of(oracle);
    }

    /**
     * {@code measure} of ordered launch with the waiting room divided by plain ordered launch's (under 1: the room
     * helps); NaN when the sweep ran without the room.
     */
    public double waitingOverOrdered(Measure measure) {
        return waiting == null ? Double.NaN : measure.of(waiting) / measure.of(ordered);
    }
}
