package dev.orderly.bench.scale;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Watches the heap during a run and keeps two peaks: the highest used heap sampled every {@code period} on a
 * thread of its own (garbage included: with a large {@code -Xmx} the collector lets it grow), and the highest heap
 * left after a young or full collection, from the notifications of the collectors that go through every heap pool
 * (what the run really keeps alive, plus old garbage that collection did not reach; a concurrent cycle's pauses,
 * which leave eden as it was, do not count). Start it with {@link #start}, read it with {@link #stop}.
 *
 * <p>The sampler is a platform daemon thread, so a run that keeps every carrier of the virtual threads busy (a
 * thousand requests at once) does not starve it of its samples. Benchmarks only: the engine has no platform thread.
 */
public final class HeapWatch {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    /** The collectors that go through every heap pool (a young or a full collection), by name. */
    private static final Set<String> WHOLE_HEAP_COLLECTORS = wholeHeapCollectors();

    private final Duration period;
    private final Thread sampler;
    private volatile long peakBytes;
    private final AtomicLong peakAfterGcBytes = new AtomicLong();
    private final NotificationListener onGc = this::afterGc;
    private volatile boolean running = true;

    private HeapWatch(Duration period) {
        this.period = period;
        this.sampler = Thread.ofPlatform().name("heap-watch").daemon().unstarted(this::sample);
    }

    public static HeapWatch start(Duration period) {
        HeapWatch watch = new HeapWatch(period);
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener(watch.onGc, null, null);
        }
        watch.sampler.start();
        return watch;
    }

    private void afterGc(Notification notification, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        if (!WHOLE_HEAP_COLLECTORS.contains(info.getGcName())) {
            // A collector of part of the heap (G1's "G1 Concurrent GC": its Remark and Cleanup pauses collect no young
            // space): its "after" figures hold all of eden, the garbage of the moment, not what a collection left.
            return;
        }
        long after = 0;
        for (MemoryUsage usage : info.getGcInfo().getMemoryUsageAfterGc().values()) {
            after += usage.getUsed();
        }
        // Non-heap pools are in the map too; keep to the heap's share.
        long heapAfter = after - nonHeapUsed(info);
        peakAfterGcBytes.accumulateAndGet(heapAfter, Math::max);
    }

    private static Set<String> wholeHeapCollectors() {
        List<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).toList();
        Set<String> names = new HashSet<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (Arrays.asList(gc.getMemoryPoolNames()).containsAll(heapPools)) {
                names.add(gc.getName());
            }
        }
        return Set.copyOf(names);
    }

    private static long nonHeapUsed(GarbageCollectionNotificationInfo info) {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.NON_HEAP) {
                MemoryUsage usage = info.getGcInfo().getMemoryUsageAfterGc().get(pool.getName());
                if (usage != null) {
                    sum += usage.getUsed();
                }
            }
        }
        return sum;
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

    /** Stops watching; returns {@code [peak used heap, peak heap after a collection]} in bytes. */
    public long[] stop() throws InterruptedException {
        running = false;
        sampler.interrupt();
        sampler.join();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            try {
                ((NotificationEmitter) gc).removeNotificationListener(onGc);
            } catch (ListenerNotFoundException e) {
                throw new IllegalStateException("listener of " + gc.getName() + " vanished", e);
            }
        }
        return new long[] {Math.max(peakBytes, usedBytes()), peakAfterGcBytes.get()};
    }

    /** The heap in use right now, in bytes. */
    public static long usedBytes() {
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    /** The heap in use after a full collection, in bytes: what is really kept alive. */
    public static long liveBytesAfterGc() {
        System.gc();
        return usedBytes();
    }

    /** The most the heap may grow to ({@code -Xmx}), in bytes. */
    public static long maxBytes() {
        return MEMORY.getHeapMemoryUsage().getMax();
    }

    public static String mib(long bytes) {
        return String.format("%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
