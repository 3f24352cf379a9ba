package dev.orderly.sim.run;

import java.time.Duration;

/**
 * A canary for a simulated clock that falls behind: a virtual thread that sleeps a short wall-clock period over and
 * over and measures how late each wake-up comes. On a busy machine every timer of a run (jobs' run times, the
 * engine's retry delays, the client's read time) wakes about as late, and the time scale multiplies that lateness into
 * simulated time the run never meant to spend: at 1000x, a wake-up 0.1 ms late is a refused delay's 100 ms.
 *
 * <p>Thread-safety: {@code stopped} is volatile; the sums are written by the probe's thread only and read by the
 * caller of {@link #stop()} after {@link Thread#join()}, which orders the two; {@code samples} is volatile (one
 * writer) so that progress can be read while the probe runs.
 */
final class ClockProbe {

    private static final Duration PERIOD = Duration.ofMillis(1);

    private final Thread thread = Thread.ofVirtual().name("clock-probe").unstarted(this::loop);
    private volatile boolean stopped;
    private volatile long samples;
    private long sumNanos;
    private long maxNanos;

    void start() {
        thread.start();
    }

    private void loop() {
        long period = PERIOD.toNanos();
        while (!stopped) {
            long from = System.nanoTime();
            try {
                Thread.sleep(PERIOD);
            } catch (InterruptedException e) {
                return; // stop() interrupts: the last, cut-short sleep is not a sample
            }
            long late = Math.max(0, System.nanoTime() - from - period);
            samples++;
            sumNanos += late;
            maxNanos = Math.max(maxNanos, late);
        }
    }

    /** Wake-ups measured so far. */
    long samples() {
        return samples;
    }

    /** Stops the probe without waiting for it: for a run being cancelled. */
    void cancel() {
        stopped = true;
        thread.interrupt();
    }

    /** Stops the probe and returns what it measured. */
    ClockLateness stop() throws InterruptedException {
        stopped = true;
        thread.interrupt();
        thread.join();
        return new ClockLateness(samples, samples == 0 ? 0 : sumNanos / samples, maxNanos);
    }
}
