package dev.orderly.sim.run;

import dev.orderly.sim.fleet.TimeScale;
import java.time.Duration;

/**
 * How late the wall clock's timers woke during a run (see {@link ClockProbe}), in wall-clock nanoseconds.
 *
 * @param samples wake-ups measured
 * @param meanNanos mean lateness of a wake-up
 * @param maxNanos largest lateness of a wake-up
 */
public record ClockLateness(long samples, long meanNanos, long maxNanos) {

    /** Nothing measured. */
    public static final ClockLateness NONE = new ClockLateness(0, 0, 0);

    /**
     * The share of {@code resolution} a timer is late by, on average, past which a run is behind: its timers
     * overshoot the shortest delay it models by a tenth. Measured on 2 cores with the default scenario: 10x stays
     * under it (about 7 ms late against a 100 ms refused delay, on a loaded machine); 30x, where the baseline already
     * sends a sixth fewer dials, is over it (21 to 29 ms).
     */
    static final double BEHIND_SHARE = 0.1;

    /** The mean lateness in simulated seconds: what a timer of the run overshot by, on average. */
    public double meanSimSeconds(TimeScale scale) {
        return scale.toSimSeconds(meanNanos);
    }

    /**
     * True when the run fell behind: at {@code scale}, its timers woke more than a tenth of {@code resolution}
     * (simulated: the shortest delay the scenario models, such as the refused delay) late on average.
     */
    public boolean behind(TimeScale scale, Duration resolution) {
        return resolution.isPositive() && meanSimSeconds(scale) > BEHIND_SHARE * resolution.toNanos() / 1e9;
    }
}
