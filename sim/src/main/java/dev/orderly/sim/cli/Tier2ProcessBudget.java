package dev.orderly.sim.cli;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * How many tier2 processes this machine can run at once. Each tier2 instance of {@code orderly fleet} is a JVM of
 * its own (about 90 MB resident when idle, measured on a 2-core machine, more under load), so the count is bounded
 * by the cores (a few JVMs per core still get scheduled within the time scale's tolerance) and by the memory.
 *
 * @param cores the processors the JVM sees
 * @param memoryBytes the machine's physical memory
 */
record Tier2ProcessBudget(int cores, long memoryBytes) {

    /** Tier2 processes per core. */
    static final int PER_CORE = 8;
    /** Memory set aside for each tier2 process. */
    static final long MEMORY_EACH = 256L << 20;

    /** The budget of the machine this JVM runs on. */
    static Tier2ProcessBudget ofThisMachine() {
        long memory = ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? os.getTotalMemorySize() : Long.MAX_VALUE;
        return new Tier2ProcessBudget(Runtime.getRuntime().availableProcessors(), memory);
    }

    /** The most tier2 processes this machine can run: at least one. */
    int most() {
        return (int) Math.max(1, Math.min((long) PER_CORE * cores, memoryBytes / MEMORY_EACH));
    }

    /**
     * Rejects {@code instances} above {@link #most()} (or, if lower, {@code hardMost}), saying what this machine has
     * room for and why.
     *
     * @throws ParameterException naming {@code option}, the value and the bound
     */
    void check(CommandLine cl, String option, int instances, int hardMost) {
        int most = Math.min(most(), hardMost);
        if ((instances < 1 || instances > most) && hardMost < most()) {
            // The command's own bound, not the machine's: the machine has room for more.
            throw new ParameterException(cl, String.format(Locale.ROOT, "%s must be between 1 and %d, was %d",
                    option, most, instances));
        }
        if (instances < 1 || instances > most) {
            String why = memoryBytes / MEMORY_EACH < (long) PER_CORE * cores
                    ? String.format(Locale.ROOT, "%d MB each of %d MB of memory", MEMORY_EACH >> 20, memoryBytes >> 20)
                    : String.format(Locale.ROOT, "%d per core on %s", PER_CORE, RunSupport.count(cores, "core"));
            throw new ParameterException(cl, String.format(Locale.ROOT,
                    "%s must be between 1 and %d on this machine, was %d: each tier2 instance is a JVM of its own,"
                            + " and this machine has room for %d (%s)", option, most, instances, most, why));
        }
    }
}
