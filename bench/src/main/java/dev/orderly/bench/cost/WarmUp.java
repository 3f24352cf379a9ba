package dev.orderly.bench.cost;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * Warm-up until the JIT is quiet. A fixed count of warm-up rounds was too few for the engine: its code is larger
 * than the hand-written executor's, so the JIT was still compiling it rounds after the hand-written side's code was
 * done, and the measured rounds counted the compiler's CPU (the CPU figure is the whole process's) and code not yet
 * compiled at its last tier. So a benchmark runs at least its warm-up rounds, then more, up to {@link #MAX_ROUNDS},
 * until {@link #QUIET_ROUNDS} whole rounds in a row (every side once each) spent at most {@link #QUIET_MILLIS} ms
 * compiling each. One quiet round is not enough: the JIT compiles in bursts, and a quiet round was seen followed by
 * 180 ms of compiling in the next five.
 *
 * <p>Compile time is the JVM's own total ({@link CompilationMXBean#getTotalCompilationTime()}), summed over its
 * compiler threads. Not thread-safe; used by the benchmark's main thread.
 */
final class WarmUp {

    /** Compile time a round may still take and count as quiet. */
    static final long QUIET_MILLIS = 20;

    /** Quiet rounds in a row that end the warm-up. */
    static final int QUIET_ROUNDS = 3;

    /** The most warm-up rounds, whatever the JIT does: a JIT that never goes quiet must not hold a run forever. */
    static final int MAX_ROUNDS = 40;

    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

    /** One round of every side; any failure ends the warm-up and the run. */
    @FunctionalInterface
    interface Round {
        void run() throws Exception;
    }

    /** What the warm-up did: how many rounds it ran, and whether it ended quiet or at {@link #MAX_ROUNDS}. */
    record Done(int rounds, boolean quiet, long lastRoundCompileMillis) {
        @Override
        public String toString() {
            return rounds + " warm-up round(s), " + (quiet ? "the JIT quiet" : "the JIT still compiling, at the most")
                    + " (the last round compiled " + lastRoundCompileMillis + " ms)";
        }
    }

    private WarmUp() {
    }

    /**
     * Runs {@code round} at least {@code minRounds} times, then until QUIET_ROUNDS rounds in a row each compiled at
     * most QUIET_MILLIS ms, or MAX_ROUNDS rounds were run.
     */
    static Done run(int minRounds, Round round) throws Exception {
        return run(minRounds, round, WarmUp::compileMillis);
    }

    /** As {@link #run(int, Round)}, with the JIT's compile time read from {@code compileMillis} (tests feed it). */
    static Done run(int minRounds, Round round, LongSupplier compileMillis) throws Exception {
        if (minRounds < 0) {
            throw new IllegalArgumentException("minRounds must be at least 0, was " + minRounds);
        }
        int rounds = 0;
        int quietInARow = 0;
        long compiled = 0;
        while (rounds < MAX_ROUNDS && (rounds < minRounds || quietInARow < QUIET_ROUNDS)) {
            long before = compileMillis.getAsLong();
            round.run();
            compiled = compileMillis.getAsLong() - before;
            quietInARow = compiled <= QUIET_MILLIS ? quietInARow + 1 : 0;
            rounds++;
        }
        return new Done(rounds, quietInARow >= QUIET_ROUNDS, compiled);
    }

    /** Milliseconds the JIT has compiled since the JVM started, or 0 when the JVM does not say. */
    static long compileMillis() {
        return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : 0;
    }
}
