package dev.orderly.bench.cost;

import java.util.Arrays;
import java.util.Locale;

/**
 * How long a cache line takes to go from one core to another and back on this machine: two platform threads hand a
 * volatile counter back and forth, each spinning until it sees the other's write. The engine writes more lines that
 * another core wrote last per job than the hand-written executor does, so this figure, which varies with the
 * machine and with where its virtual CPUs sit on the host, moves the engine's cost far more than the baseline's.
 * Printed beside each scenario so that a run can be read against it.
 */
final class CoreToCore {

    private static final int ROUND_TRIPS = 100_000;
    private static final int RUNS = 5;

    private volatile long ping;
    private volatile long pong;

    private CoreToCore() {
    }

    /** "round trip N ns (min-max over 5 runs of 100,000)": the median run's mean round trip. */
    static String now() {
        try {
            double[] ns = new double[RUNS];
            for (int i = 0; i < RUNS; i++) {
                ns[i] = roundTripNanos(ROUND_TRIPS);
            }
            Arrays.sort(ns);
            return String.format(Locale.ROOT, "cross-core round trip %.0f ns (%.0f-%.0f over %d runs of %,d)",
                    ns[RUNS / 2], ns[0], ns[RUNS - 1], RUNS, ROUND_TRIPS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "cross-core round trip unknown (interrupted)";
        }
    }

    /**
     * The mean time of one round trip over {@code trips} of them; the answering thread has ended when this returns.
     * On one CPU the two threads take turns on it instead, and the figure is a scheduler's time slice, not a cache's.
     */
    static double roundTripNanos(int trips) throws InterruptedException {
        if (trips < 1) {
            throw new IllegalArgumentException("trips must be at least 1, was " + trips);
        }
        CoreToCore line = new CoreToCore();
        Thread answer = Thread.ofPlatform().daemon().name("core-to-core").start(() -> {
            for (long i = 1; i <= trips; i++) {
                while (line.ping != i) {
                    Thread.onSpinWait();
                }
                line.pong = i;
            }
        });
        long start = System.nanoTime();
        for (long i = 1; i <= trips; i++) {
            line.ping = i;
            while (line.pong != i) {
                Thread.onSpinWait();
            }
        }
        long elapsed = System.nanoTime() - start;
        answer.join();
        return (double) elapsed / trips;
    }
}
