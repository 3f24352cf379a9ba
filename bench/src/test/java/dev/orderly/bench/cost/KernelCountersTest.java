package dev.orderly.bench.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KernelCountersTest {

    @Test
    void aPlatformThreadThatSleepsIsSwitchedOffItsCoreEachTime() throws InterruptedException {
        assumeTrue(Files.isReadable(Path.of("/proc/self/task")), "Linux's /proc");
        KernelCounters.Snapshot before = KernelCounters.now();
        assertTrue(before.known());
        int sleeps = 50;
        // The parks are what is measured: each one that lasts puts the OS thread to sleep, a voluntary switch. The
        // thread reads the counters before it ends (an ended thread takes its switches with it, as the class says).
        KernelCounters.Snapshot[] after = new KernelCounters.Snapshot[1];
        Thread sleeper = Thread.ofPlatform().name("sleeper").start(() -> {
            for (int i = 0; i < sleeps; i++) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            after[0] = KernelCounters.now();
        });
        sleeper.join();
        double switches = after[0].switchesSince(before);
        assertTrue(switches >= sleeps, switches + " switches for " + sleeps + " sleeps of a thread alive at the end");
        double kernel = after[0].kernelPercentSince(before);
        assertTrue(Double.isNaN(kernel) || (kernel >= 0 && kernel <= 100), "kernel share " + kernel);
    }

    @Test
    void aThreadBornBetweenTwoSnapshotsCountsFromZeroAndTheKernelShareIsOfTheTicksBetween() {
        KernelCounters.Snapshot before = new KernelCounters.Snapshot(100, 20, Map.of(1L, 10L, 2L, 5L));
        KernelCounters.Snapshot after = new KernelCounters.Snapshot(160, 40, Map.of(1L, 13L, 3L, 7L));
        assertEquals(3 + 7, after.switchesSince(before));
        assertEquals(100.0 * 20 / 80, after.kernelPercentSince(before), 1e-9);
    }

    @Test
    void withoutProcEveryFigureIsNotANumber() {
        KernelCounters.Snapshot known = new KernelCounters.Snapshot(1, 1, Map.of());
        assertFalse(KernelCounters.UNKNOWN.known());
        assertTrue(Double.isNaN(KernelCounters.UNKNOWN.switchesSince(known)));
        assertTrue(Double.isNaN(known.switchesSince(KernelCounters.UNKNOWN)));
        assertTrue(Double.isNaN(known.kernelPercentSince(KernelCounters.UNKNOWN)));
        assertTrue(Double.isNaN(known.kernelPercentSince(known)), "no CPU time between the two");
        assertEquals("n/a", Comparison.format(Double.NaN, 1));
    }

    @Test
    void aStatusIsReadForItsTwoSwitchLinesOrRefused() {
        assertEquals(12 + 3, KernelCounters.switchesOf(List.of("Name:\tjava", "voluntary_ctxt_switches:\t12",
                "nonvoluntary_ctxt_switches:\t3")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KernelCounters.switchesOf(List.of("voluntary_ctxt_switches:\t12")));
        assertTrue(e.getMessage().contains("two context-switch lines"), e.getMessage());
    }
}
