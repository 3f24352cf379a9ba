package dev.orderly.bench.scale;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.TabularData;
import javax.management.openmbean.TabularDataSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * HeapWatch's "peak after a collection" (ScaleRun's "heap: ... peak after a collection", docs/results/performance.md's
 * "at most 496 MiB left after a collection") took the heap after every collector's notification, G1's "G1 Concurrent
 * GC" included: its Remark and Cleanup pauses collect no young space, and their "after" figures hold all of eden, the
 * garbage of the moment. So the -Xmx512m scale run printed "peak after a collection 511.5 MiB" above its "peak used
 * 496.0 MiB", and the -Xmx256m one 255.8 MiB: a whole heap "left after a collection". This test hands the watch such
 * a notification, with 256 MiB in eden, built from a real collection's figures.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class APauseThatCollectsNoEdenIsNotAPeakAfterACollectionTest {

    private static final long EDEN_GARBAGE = 256L << 20;

    @Test
    void theEdenLeftByAConcurrentCyclesPauseIsNotCountedAsLeftAfterACollection() throws Exception {
        GcInfo real = oneRealCollection();
        String eden = real.getMemoryUsageAfterGc().keySet().stream().filter(name -> name.contains("Eden"))
                .findFirst().orElse(null);
        assumeTrue(eden != null, "a collector with an eden space");
        GarbageCollectionNotificationInfo pause = new GarbageCollectionNotificationInfo("G1 Concurrent GC",
                "end of concurrent GC pause", "No GC", withEdenAfter(real, eden, EDEN_GARBAGE));
        Notification notification = new Notification(
                GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION, "test", 1);
        notification.setUserData(pause.toCompositeData(null));

        HeapWatch watch = HeapWatch.start(Duration.ofMillis(10));
        long[] peak;
        try {
            Method afterGc = HeapWatch.class.getDeclaredMethod("afterGc", Notification.class, Object.class);
            afterGc.setAccessible(true);
            afterGc.invoke(watch, notification, null);
        } finally {
            peak = watch.stop();
        }
        assertTrue(peak[1] < EDEN_GARBAGE, "peak heap after a collection " + (peak[1] >> 20)
                + " MiB, with " + (EDEN_GARBAGE >> 20) + " MiB of eden that no collection went through");
    }

    /** The GcInfo of a collection of this JVM (System.gc()), as its collector told it. */
    private static GcInfo oneRealCollection() {
        AtomicReference<GcInfo> seen = new AtomicReference<>();
        NotificationListener listener = (n, handback) -> {
            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                seen.compareAndSet(null, GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData())
                        .getGcInfo());
            }
        };
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener(listener, null, null);
        }
        try {
            System.gc();
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> seen.get() != null);
            return seen.get();
        } finally {
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                try {
                    ((NotificationEmitter) gc).removeNotificationListener(listener);
                } catch (javax.management.ListenerNotFoundException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /** {@code info} with {@code pool} using {@code used} bytes after the collection. */
    private static GcInfo withEdenAfter(GcInfo info, String pool, long used) throws Exception {
        CompositeData data = info.toCompositeData(null);
        TabularData after = (TabularData) data.get("memoryUsageAfterGc");
        TabularDataSupport changed = new TabularDataSupport(after.getTabularType());
        for (Object row : after.values()) {
            CompositeData entry = (CompositeData) row;
            if (pool.equals(entry.get("key"))) {
                CompositeData usage = (CompositeData) entry.get("value");
                long committed = Math.max((Long) usage.get("committed"), used);
                CompositeData bigger = new CompositeDataSupport(usage.getCompositeType(),
                        new String[] {"init", "used", "committed", "max"},
                        new Object[] {usage.get("init"), used, committed, -1L});
                entry = new CompositeDataSupport(entry.getCompositeType(), new String[] {"key", "value"},
                        new Object[] {pool, bigger});
            }
            changed.put(entry);
        }
        Map<String, Object> items = new HashMap<>();
        for (String key : data.getCompositeType().keySet()) {
            items.put(key, key.equals("memoryUsageAfterGc") ? changed : data.get(key));
        }
        return GcInfo.from(new CompositeDataSupport(data.getCompositeType(), items));
    }
}
