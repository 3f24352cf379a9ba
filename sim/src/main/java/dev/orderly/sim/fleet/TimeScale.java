package dev.orderly.sim.fleet;

import java.time.Duration;

/**
 * How fast simulated time runs against the wall clock: {@code factor} simulated seconds pass per wall-clock second.
 * Every duration of a scenario (job durations, retry delays, the client's read time) is written in simulated time and
 * converted here, so a run that would take minutes on a real fleet takes seconds while keeping every ratio.
 *
 * @param factor simulated seconds per wall-clock second, {@code > 0}
 */
public record TimeScale(double factor) {

    /** Simulated time equals wall-clock time. */
    public static final TimeScale REAL_TIME = new TimeScale(1.0);

    /**
     * @throws IllegalArgumentException naming the factor when it is not a finite number {@code > 0}
     */
    public TimeScale {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("time scale must be a finite number > 0, was " + factor);
        }
    }

    /** The wall-clock duration of a simulated duration. */
    public Duration toWall(Duration simulated) {
        return Duration.ofNanos(Math.round(simulated.toNanos() / factor));
    }

    /** The simulated seconds that {@code wallNanos} of wall-clock time stand for. */
    public double toSimSeconds(long wallNanos) {
        return wallNanos * factor / 1e9;
    }

    /**
     * Lets {@code simulated} time pass on the calling thread. Interruptible, so a cancelled request's jobs end
     * promptly; meant for virtual threads, where a sleeping thread holds no carrier.
     *
     * @throws InterruptedException if the thread is interrupted while it waits
     */
    public void sleep(Duration simulated) throws InterruptedException {
        Duration wall = toWall(simulated);
        if (wall.isPositive()) {
            Thread.sleep(wall);
        }
    }
}
