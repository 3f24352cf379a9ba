package dev.orderly.bench.cost;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * What Linux counted for this process, read from {@code /proc}: the CPU time its threads spent in user and in kernel
 * mode ({@code /proc/self/stat}, in clock ticks), and how often each of its OS threads was switched off its core
 * ({@code voluntary_ctxt_switches} plus {@code nonvoluntary_ctxt_switches} of {@code /proc/self/task/<tid>/status}).
 *
 * <p>Why the benchmark reads them: an executor whose OS threads park and are woken by the kernel (a platform caller
 * waiting on a semaphore, a carrier with nothing to run) pays a futex call and a context switch each time, in kernel
 * time; one whose waits are virtual threads' pays neither. So the kernel's share of the CPU and the switches per
 * segment tell, for each round, whether a side's rate was set by its own work or by its OS threads' sleeps.
 *
 * <p>A thread that ends between two snapshots takes its switches since the first with it (the sum counts the threads
 * alive at the second); the benchmark's threads (carriers, the caller, the collector's and the JIT's) live through a
 * round. Where {@code /proc} is missing (not Linux), {@link #now()} returns {@link #UNKNOWN} and the figures are NaN.
 * Stateless; thread-safe.
 */
final class KernelCounters {

    /** The counters of a system without {@code /proc}: every figure computed from it is NaN. */
    static final Snapshot UNKNOWN = new Snapshot(-1, -1, Map.of());

    private static final Path STAT = Path.of("/proc/self/stat");
    private static final Path TASKS = Path.of("/proc/self/task");

    private KernelCounters() {
    }

    /**
     * The counters at one moment.
     *
     * @param userTicks CPU time of every thread of the process, dead ones included, in user mode (clock ticks)
     * @param kernelTicks the same in kernel mode
     * @param switches context switches of each OS thread alive now, by thread id
     */
    record Snapshot(long userTicks, long kernelTicks, Map<Long, Long> switches) {

        Snapshot {
            switches = Map.copyOf(switches);
        }

        boolean known() {
            return userTicks >= 0;
        }

        /** The kernel's share of the CPU time since {@code before}, in percent; NaN if unknown or none was used. */
        double kernelPercentSince(Snapshot before) {
            if (!known() || !before.known()) {
                return Double.NaN;
            }
            long user = userTicks - before.userTicks;
            long kernel = kernelTicks - before.kernelTicks;
            return user + kernel <= 0 ? Double.NaN : 100.0 * kernel / (user + kernel);
        }

        /**
         * Context switches since {@code before}, summed over the threads alive now (a thread that did not exist then
         * counts from zero); NaN if unknown.
         */
        double switchesSince(Snapshot before) {
            if (!known() || !before.known()) {
                return Double.NaN;
            }
            long sum = 0;
            for (Map.Entry<Long, Long> thread : switches.entrySet()) {
                sum += thread.getValue() - before.switches.getOrDefault(thread.getKey(), 0L);
            }
            return sum;
        }
    }

    /** The counters now, or {@link #UNKNOWN} where {@code /proc} can not be read. */
    static Snapshot now() {
        try {
            // The command (field 2) is in parentheses and may hold spaces: count the fields after its ')'.
            String stat = Files.readString(STAT);
            String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // utime and stime are fields 14 and 15 of the whole line, so 11 and 12 of those after the command.
            long user = Long.parseLong(after[11]);
            long kernel = Long.parseLong(after[12]);
            return new Snapshot(user, kernel, threadSwitches());
        } catch (IOException | RuntimeException e) {
            // No /proc (not Linux), or a format this parser does not know; a directory that can not be listed to
            // the end throws DirectoryIteratorException, a RuntimeException too.
            return UNKNOWN;
        }
    }

    private static Map<Long, Long> threadSwitches() throws IOException {
        Map<Long, Long> switches = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                long count;
                try {
                    count = switchesOf(Files.readAllLines(task.resolve("status")));
                } catch (NoSuchFileException e) {
                    continue; // the thread ended while the directory was read
                }
                switches.put(Long.parseLong(task.getFileName().toString()), count);
            }
        }
        return switches;
    }

    /** The sum of the two context-switch lines of one thread's {@code status}. */
    static long switchesOf(Iterable<String> status) {
        long sum = 0;
        int found = 0;
        for (String line : status) {
            if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                found++;
            }
        }
        if (found != 2) {
            throw new IllegalArgumentException("a thread's status without its two context-switch lines: " + status);
        }
        return sum;
    }
}
