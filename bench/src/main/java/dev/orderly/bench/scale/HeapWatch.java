package dev.orderly.bench.scale;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;

/**
 * Samples the used heap every {@code period} on a virtual thread of its own and keeps the highest sample: the peak
 * heap of a run, as seen between collections. Start it with {@link #start}, read it with {@link #stop}.
 */
final class HeapWatch {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private final Duration period;
    private final Thread sampler;
    private volatile long peakBytes;
    private volatile boolean running = true;

    private HeapWatch(Duration period) {
        this.period = period;
        this.sampler = Thread.ofVirtual().name("heap-watch").unstarted(this::sample);
    }

    static HeapWatch start(Duration period) {
        HeapWatch watch = new HeapWatch(period);
        watch.sampler.start();
        return watch;
    }

    private void sample() {
        while (running) {
            peakBytes = Math.max(peakBytes, usedBytes());
            try {
                Thread.sleep(period);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Stops sampling and returns the peak used heap in bytes. */
    long stop() throws InterruptedException {
        running = false;
        sampler.interrupt();
        sampler.join();
        return Math.max(peakBytes, usedBytes());
    }

    /** The heap in use right now, in bytes. */
    static long usedBytes() {
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    /** The heap in use after a full collection, in bytes: what is really kept alive. */
    static long liveBytesAfterGc() {
        System.gc();
        return usedBytes();
    }

    /** The most the heap may grow to ({@code -Xmx}), in bytes. */
    static long maxBytes() {
        return MEMORY.getHeapMemoryUsage().getMax();
    }

    static String mib(long bytes) {
        return String.format("%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
