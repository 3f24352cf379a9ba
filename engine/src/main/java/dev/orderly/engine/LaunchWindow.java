package dev.orderly.engine;

import dev.orderly.api.EngineConfig;
import java.util.Objects;

/**
 * How large a request's launch window is: a share of its workers, clamped to bounds. The window is the number of a
 * request's queued jobs that may dial at once (see {@link LaunchQueue}).
 *
 * @param percent the window as a percentage of the request's workers, {@code 1..100}
 * @param min the smallest window, {@code >= 1}
 * @param max the largest window, {@code >= min}
 */
public record LaunchWindow(int percent, int min, int max) {

    /**
     * @throws IllegalArgumentException naming the field and the value, if one is out of range
     */
    public LaunchWindow {
        if (percent < 1 || percent > 100) {
            throw new IllegalArgumentException("launch window percent must be between 1 and 100, was " + percent);
        }
        if (min < 1) {
            throw new IllegalArgumentException("launch window min must be >= 1, was " + min);
        }
        if (max < min) {
            throw new IllegalArgumentException("launch window max must be >= min (" + min + "), was " + max);
        }
    }

    /** The window of {@code config}: its {@code launchWindowPercent}, {@code launchWindowMin} and {@code launchWindowMax}. */
    public static LaunchWindow of(EngineConfig config) {
        Objects.requireNonNull(config, "config");
        return new LaunchWindow(config.launchWindowPercent(), config.launchWindowMin(), config.launchWindowMax());
    }

    /**
     * The window for {@code workers} workers: {@code clamp(workers * percent / 100, min, max)} with integer division.
     * With the defaults (20, 2, 15): 10 workers give 2, 50 give 10, 200 give 15, 1 gives 2.
     *
     * @throws IllegalArgumentException if {@code workers < 1}
     */
    public int size(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be >= 1, was " + workers);
        }
        long share = (long) workers * percent / 100;
        return Math.clamp(share, min, max);
    }
}
