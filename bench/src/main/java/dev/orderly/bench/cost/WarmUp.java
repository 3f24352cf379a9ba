package dev.orderly.bench.cost;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
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
 * <p>Nor is a count of rounds, when rounds are short: the JIT's tiers move by time as well as by count (a method
 * waits in a compile queue, and the thresholds grow with the queue), so the warm-up also lasts at least {@link
 * #MIN_NANOS}, and {@link #MAX_ROUNDS} stops it only after that. Without it, the 1,000 small requests (rounds of
 * 20-30 ms) ended their warm-up after 16 rounds, 0.4 s, with the engine's per-request code (a request's constructors)
 * still at C1's profiling tier; C2 compiled it during the measured rounds, and the engine's wall read 1.7-2.0x the
 * hand-written executor's in whole runs against 1.0-1.2x after a warm-up of 40 rounds.
 *
 * <p>Compile time is the JVM's own total ({@link CompilationMXBean#getTotalCompilationTime()}), summed over its
 * compiler threads. Not thread-safe; used by the benchmark's main thread.
 */
final class WarmUp {

    /** Compile time a round may still take and count as quiet. */
    static final long QUIET_MILLIS = 20;

    /** Quiet rounds in a row that end the warm-up. */
    static final int QUIET_ROUNDS = 3;

    /**
     * The most warm-up rounds once {@link #MIN_NANOS} have passed, whatever the JIT does: a JIT that never goes quiet
     * must not hold a run forever.
     */
    static final int MAX_ROUNDS = 40;

    /** The shortest warm-up, however quiet the JIT looks. */
    static final long MIN_NANOS = TimeUnit.SECONDS.toNanos(3);

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
     * Runs {@code round} at least {@code minRounds} times and for at least MIN_NANOS, then until QUIET_ROUNDS rounds in
     * a row each compiled at most QUIET_MILLIS ms, or until MAX_ROUNDS rounds were run (MIN_NANOS having passed).
     */
    static Done run(int minRounds, Round round) throws Exception {
        return run(minRounds, round, WarmUp::compileMillis, System::nanoTime);
    }

    /**
     * As {@link #run(int, Round)}, with the JIT's compile time read from {@code compileMillis} and the time from {@code
     * nanoTime} (tests feed them).
     */
    static Done run(int minRounds, Round round, LongSupplier compileMillis, LongSupplier nanoTime) throws Exception {
        if (minRounds < 0) {
            throw new IllegalArgumentException("minRounds must be at least 0, was " + minRounds);
        }
        long start = nanoTime.getAsLong();
        int rounds = 0;
        int quietInARow = 0;
        long compiled = 0;
        boolean longEnough = false;
        // Until MIN_NANOS have passed and the rounds asked for have run, whatever else; then while the JIT is not yet
        // quiet, up to MAX_ROUNDS.
        while (!longEnough || rounds < minRounds || (rounds < MAX_ROUNDS && quietInARow < QUIET_ROUNDS)) {
            long before = compileMillis.getAsLong();
            round.run();
            compiled = compileMillis.getAsLong() - before;
            quietInARow = compiled <= QUIET_MILLIS ? quietInARow + 1 : 0;
            rounds++;
            longEnough = nanoTime.getAsLong() - start >= MIN_NANOS;
        }
        return new Done(rounds, quietInARow >= QUIET_ROUNDS, compiled);
    }

    /** Milliseconds the JIT has compiled since the JVM started, or 0 when the JVM does not say. */
    static long compileMillis() {
        return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : 0;
    }
}
