package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The running jobs' map: a unit of the window in its own slot, a unit whose slot another unit holds (or whose stage
 * has no slot) in the overflow map, and either way found, removed and listed as a plain concurrent map would.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UnitSlotsTest {

    /** A value that knows its unit, as a running job's handle does. */
    private record Job(JobKey key) {
        Job(long segment, int stage) {
            this(new JobKey(segment, stage));
        }
    }

    private static UnitSlots<Job> slots(long window, int stages) {
        return new UnitSlots<>(window, stages, Job::key);
    }

    @Test
    void theSlotsCoverTheWindowRoundedUpToAPowerOfTwoTimesTheStages() {
        assertEquals(256, slots(200, 1).slotCount());
        assertEquals(512, slots(200, 2).slotCount());
        assertEquals(4, slots(4, 1).slotCount());
        assertEquals(1, slots(1, 1).slotCount());
        assertEquals(3 * 8, slots(5, 3).slotCount());
    }

    @Test
    void theSlotsAreBoundedWhateverThePlan() {
        assertEquals(UnitSlots.MAX_SLOTS, slots(Long.MAX_VALUE / 4, 1).slotCount());
        // 65,536 / 3 = 21,845 segments round up to 32,768, three times that is too many: 16,384 segments.
        assertEquals(16_384 * 3, slots(1_000_000, 3).slotCount());
        // Stages past the 64 that get slots have none.
        assertEquals(UnitSlots.MAX_SLOTS, slots(1 << 20, 1000).slotCount());
        assertEquals(64 * 2, slots(2, 1000).slotCount());
    }

    @Test
    void everyUnitOfTheWindowIsPutFoundAndRemoved() {
        UnitSlots<Job> map = slots(8, 2);
        List<Job> jobs = new ArrayList<>();
        for (long segment = 40; segment < 48; segment++) {
            for (int stage = 0; stage < 2; stage++) {
                Job job = new Job(segment, stage);
                jobs.add(job);
                assertNull(map.putIfAbsent(job));
            }
        }
        assertEquals(0, map.overflowCount(), "the units of one window never share a slot");
        for (Job job : jobs) {
            assertSame(job, map.get(job.key()));
            assertSame(job, map.get(job.key().segment(), job.key().stage()));
        }
        assertNull(map.get(new JobKey(48, 0)), "a unit past the window shares a slot, but is not the one in it");
        for (Job job : jobs) {
            assertTrue(map.remove(job));
            assertNull(map.get(job.key()));
            assertFalse(map.remove(job), "a value is removed once");
        }
    }

    @Test
    void aUnitWhoseSlotIsTakenGoesToTheOverflowAndIsFoundThereAfterTheSlotFrees() {
        UnitSlots<Job> map = slots(4, 1);
        Job lingering = new Job(3, 0);
        Job late = new Job(7, 0); // the same slot: 7 mod 4 = 3
        assertNull(map.putIfAbsent(lingering));
        assertEquals(0, map.overflowCount());
        assertNull(map.putIfAbsent(late));
        assertEquals(1, map.overflowCount(), "the later unit of a shared slot goes to the overflow map");
        assertSame(lingering, map.get(3, 0));
        assertSame(late, map.get(7, 0));

        assertTrue(map.remove(lingering));
        assertSame(late, map.get(7, 0), "found in the overflow map while its slot is free");
        assertSame(late, map.putIfAbsent(new Job(7, 0)), "the free slot does not hide the unit's value");
        Job next = new Job(11, 0);
        assertNull(map.putIfAbsent(next), "a third unit of the slot takes it");
        assertSame(next, map.get(11, 0));
        assertSame(late, map.get(7, 0));

        assertEquals(1, map.overflowCount(), "the third unit took the free slot");
        assertTrue(map.remove(late));
        assertEquals(0, map.overflowCount());
        assertNull(map.get(7, 0));
        assertTrue(map.remove(next));
        assertNull(map.get(11, 0));
    }

    @Test
    void aSecondValueForAUnitIsReportedWhereverTheFirstIs() {
        UnitSlots<Job> map = slots(4, 1);
        Job inSlot = new Job(1, 0);
        Job inOverflow = new Job(5, 0);
        map.putIfAbsent(inSlot);
        map.putIfAbsent(inOverflow);
        assertSame(inSlot, map.putIfAbsent(new Job(1, 0)));
        assertSame(inOverflow, map.putIfAbsent(new Job(5, 0)));
        assertFalse(map.remove(new Job(1, 0)), "only the instance that was put is removed");
        assertSame(inSlot, map.get(1, 0));
    }

    @Test
    void aStageWithNoSlotIsKeptInTheOverflowMap() {
        UnitSlots<Job> map = slots(2, 100);
        Job high = new Job(0, 80);
        assertNull(map.putIfAbsent(high));
        assertEquals(1, map.overflowCount());
        assertSame(high, map.get(high.key()));
        assertSame(high, map.putIfAbsent(new Job(0, 80)));
        List<Job> seen = new ArrayList<>();
        map.forEach(seen::add);
        assertEquals(List.of(high), seen);
        assertTrue(map.remove(high));
        assertNull(map.get(0, 80));

        // Stage 63 is the last with a slot, 64 the first without: each is kept and found apart from its neighbours.
        UnitSlots<Job> edge = slots(2, 65);
        Job last = new Job(1, 63);
        Job first = new Job(1, 64);
        Job next = new Job(0, 0);
        assertNull(edge.putIfAbsent(last));
        assertNull(edge.putIfAbsent(first));
        assertNull(edge.putIfAbsent(next));
        assertSame(last, edge.get(1, 63));
        assertSame(first, edge.get(1, 64));
        assertSame(next, edge.get(0, 0));
        assertEquals(128, edge.slotCount());
        assertEquals(1, edge.overflowCount(), "only stage 64 has no slot");
    }

    @Test
    void forEachGivesEveryValueOnceFromTheSlotsAndTheOverflow() {
        UnitSlots<Job> map = slots(2, 1);
        Set<Job> put = new HashSet<>();
        for (long segment = 0; segment < 6; segment++) {
            Job job = new Job(segment, 0);
            map.putIfAbsent(job);
            put.add(job);
        }
        List<Job> seen = new ArrayList<>();
        map.forEach(seen::add);
        assertEquals(6, seen.size());
        assertEquals(put, new HashSet<>(seen));
    }

    @Test
    void badSizesAreRefusedByName() {
        IllegalArgumentException window = assertThrows(IllegalArgumentException.class, () -> slots(0, 1));
        assertEquals("window must be at least 1 segment, was 0", window.getMessage());
        IllegalArgumentException stages = assertThrows(IllegalArgumentException.class, () -> slots(1, 0));
        assertEquals("stages must be at least 1, was 0", stages.getMessage());
    }

    @Test
    void threadsPuttingAndRemovingUnitsThatShareSlotsLoseNone() throws Exception {
        // Two units per slot, one thread per unit, each putting and removing its own value many times.
        UnitSlots<Job> map = slots(4, 1);
        int units = 8;
        int rounds = 20_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int u = 0; u < units; u++) {
            long segment = u;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                    for (int r = 0; r < rounds; r++) {
                        Job job = new Job(segment, 0);
                        if (map.putIfAbsent(job) != null) {
                            throw new AssertionError("segment " + segment + " had a value it never put");
                        }
                        if (map.get(segment, 0) != job) {
                            throw new AssertionError("segment " + segment + " lost its value");
                        }
                        if (!map.remove(job)) {
                            throw new AssertionError("segment " + segment + " could not remove its value");
                        }
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(thread.isAlive(), "a thread is stuck");
        }
        assertEquals(List.of(), failures);
        List<Job> left = new ArrayList<>();
        map.forEach(left::add);
        assertEquals(List.of(), left);
    }

    @Test
    void twoUnitsThatOverflowFirstAtOnceShareOneOverflowMap() throws Exception {
        // The overflow map is made by the first unit that needs it: two threads that need it at the same moment must
        // both end up in the one that was kept. Fresh maps, many times, to meet that moment. Stage 64 has no slot.
        for (int round = 0; round < 2_000; round++) {
            UnitSlots<Job> map = slots(2, 65);
            assertEquals(0, map.overflowCount(), "no overflow map before a unit needs one");
            Job first = new Job(0, 64);
            Job second = new Job(1, 64);
            CyclicBarrier together = new CyclicBarrier(2);
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            Thread other = Thread.ofPlatform().start(() -> putTogether(map, second, together, failures));
            putTogether(map, first, together, failures);
            other.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(other.isAlive(), "the other thread did not end in time");
            assertEquals(List.of(), failures, "round " + round);
            assertSame(first, map.get(0, 64), "round " + round + ": a unit was lost");
            assertSame(second, map.get(1, 64), "round " + round + ": a unit was lost");
            assertEquals(2, map.overflowCount(), "round " + round);
        }
    }

    private static void putTogether(UnitSlots<Job> map, Job job, CyclicBarrier together, List<Throwable> failures) {
        try {
            together.await(10, TimeUnit.SECONDS);
            if (map.putIfAbsent(job) != null) {
                failures.add(new AssertionError(job + " had a value it never put"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failures.add(e);
        } catch (Exception e) {
            failures.add(e);
        }
    }
}
