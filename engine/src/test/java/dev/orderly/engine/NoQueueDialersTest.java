package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class NoQueueDialersTest {

    @Test
    void homeSlotsAreTwiceTheDialersRoundedUpToAPowerOfTwoWithinBounds() {
        assertEquals(2, new NoQueueDialers(1).slots());
        assertEquals(4, new NoQueueDialers(2).slots());
        assertEquals(8, new NoQueueDialers(3).slots());
        assertEquals(32, new NoQueueDialers(10).slots());
        assertEquals(32, new NoQueueDialers(16).slots());
        assertEquals(256, new NoQueueDialers(100).slots());
        assertEquals(NoQueueDialers.MAX_SLOTS, new NoQueueDialers(512).slots());
        assertEquals(NoQueueDialers.MAX_SLOTS, new NoQueueDialers(Integer.MAX_VALUE).slots());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new NoQueueDialers(0));
        assertEquals("dialers must be at least 1, was 0", e.getMessage());
    }

    @Test
    void aKeyIsInTheSetFromItsAddToItsRemoveAndOnlyOnce() {
        NoQueueDialers dialers = new NoQueueDialers(10);
        JobKey key = new JobKey(7, 0);
        assertFalse(dialers.contains(key));
        assertTrue(dialers.add(key));
        assertTrue(dialers.contains(key));
        assertTrue(dialers.contains(new JobKey(7, 0)), "found by equality, not identity");
        assertFalse(dialers.add(new JobKey(7, 0)), "a key held already is not added twice");
        assertTrue(dialers.remove(key));
        assertFalse(dialers.contains(key));
        assertFalse(dialers.remove(key), "a second remove finds nothing");
        assertEquals(0, dialers.overflowing());
    }

    @Test
    void theSegmentsOfALookAheadOfOneStageEachHaveTheirOwnSlot() {
        NoQueueDialers dialers = new NoQueueDialers(10); // 32 slots
        for (long segment = 100; segment < 132; segment++) {
            assertTrue(dialers.add(new JobKey(segment, 0)));
        }
        assertEquals(0, dialers.overflowing());
    }

    @Test
    void aKeyWhoseSlotIsTakenGoesToTheOverflowAndIsStillFoundAddedOnceAndRemoved() {
        NoQueueDialers dialers = new NoQueueDialers(1); // 2 slots: segments 0 and 2 of stage 0 share one
        JobKey first = new JobKey(0, 0);
        JobKey second = new JobKey(2, 0);
        assertTrue(dialers.add(first));
        assertTrue(dialers.add(second));
        assertEquals(1, dialers.overflowing());
        assertTrue(dialers.contains(second));
        assertFalse(dialers.add(second), "held in the overflow: not added twice");

        assertTrue(dialers.remove(first));
        assertTrue(dialers.contains(second), "still held after its home slot freed up");
        assertFalse(dialers.add(second), "nor added to its free home slot while in the overflow");
        assertFalse(dialers.contains(first));

        assertTrue(dialers.remove(second));
        assertFalse(dialers.contains(second));
        assertEquals(0, dialers.overflowing());
        assertFalse(dialers.remove(second));
        assertTrue(dialers.add(second), "back in its home slot");
        assertEquals(0, dialers.overflowing());
    }

    @Test
    void aKeysHomeSlotIsItsSegmentPlusItsStageTimesTheSpread() {
        NoQueueDialers dialers = new NoQueueDialers(100); // 256 slots
        assertEquals(37, dialers.slot(new JobKey(37, 0)));
        assertEquals(37, dialers.slot(new JobKey(256 + 37, 0)));
        assertEquals((37 + NoQueueDialers.STAGE_SPREAD) & 255, dialers.slot(new JobKey(37, 1)));
        assertEquals((37 + 3 * NoQueueDialers.STAGE_SPREAD) & 255, dialers.slot(new JobKey(37, 3)));
    }

    @Test
    @Timeout(30)
    void whenTwoThreadsRemoveOneKeyAtOnceExactlyOneRemovesIt() throws Exception {
        // leave is idempotent and may come from any thread: a key given back twice would free two dial slots.
        NoQueueDialers dialers = new NoQueueDialers(10);
        JobKey key = new JobKey(3, 0);
        CyclicBarrier both = new CyclicBarrier(2);
        AtomicInteger removedByOther = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        int rounds = 50_000;
        Thread other = Thread.ofPlatform().start(() -> {
            try {
                for (int i = 0; i < rounds; i++) {
                    both.await(10, TimeUnit.SECONDS);
                    if (dialers.remove(key)) {
                        removedByOther.incrementAndGet();
                    }
                    both.await(10, TimeUnit.SECONDS);
                }
            } catch (Exception e) {
                errors.incrementAndGet();
            }
        });
        int removedHere = 0;
        for (int i = 0; i < rounds; i++) {
            assertTrue(dialers.add(key));
            both.await(10, TimeUnit.SECONDS);
            if (dialers.remove(key)) {
                removedHere++;
            }
            both.await(10, TimeUnit.SECONDS);
            assertFalse(dialers.contains(key));
        }
        other.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(other.isAlive(), "the other thread did not end in time");
        assertEquals(0, errors.get());
        assertEquals(rounds, removedHere + removedByOther.get(), "each round, exactly one remove found the key");
    }

    @Test
    void theStagesOfOneSegmentAreSpreadOverTheSlots() {
        NoQueueDialers dialers = new NoQueueDialers(100); // 256 slots
        for (int stage = 0; stage < 4; stage++) {
            assertTrue(dialers.add(new JobKey(5, stage)));
        }
        assertEquals(0, dialers.overflowing());
        for (int stage = 0; stage < 4; stage++) {
            assertTrue(dialers.remove(new JobKey(5, stage)));
        }
    }

    @Test
    @Timeout(30)
    void threadsThatAddAndRemoveTheirOwnKeysAtOnceLoseNone() throws Exception {
        // Few slots for many keys: most go through the overflow, their home slots taken and freed meanwhile.
        NoQueueDialers dialers = new NoQueueDialers(2);
        int threads = 8;
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger errors = new AtomicInteger();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int stage = t;
            started.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await(10, TimeUnit.SECONDS);
                    for (long segment = 0; segment < 20_000; segment++) {
                        JobKey key = new JobKey(segment, stage);
                        if (!dialers.add(key) || !dialers.contains(key) || dialers.add(key) || !dialers.remove(key)
                                || dialers.contains(key)) {
                            errors.incrementAndGet();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    errors.incrementAndGet();
                }
            }));
        }
        go.countDown();
        for (Thread thread : started) {
            thread.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(thread.isAlive(), "a thread did not end in time");
        }
        assertEquals(0, errors.get());
        assertEquals(0, dialers.overflowing());
    }

    @Test
    @Timeout(30)
    void twoKeysThatOverflowFirstAtOnceShareOneOverflow() throws Exception {
        // The overflow is made by the first key that needs it: two threads that need it at the same moment must both
        // end up in the one that was kept. Fresh sets, many times, to meet that moment.
        for (int round = 0; round < 2_000; round++) {
            NoQueueDialers dialers = new NoQueueDialers(1);
            assertEquals(0, dialers.overflowing(), "no overflow before a key needs one");
            JobKey home = new JobKey(0, 0);
            assertTrue(dialers.add(home));
            JobKey first = new JobKey(2, 0);
            JobKey second = new JobKey(4, 0);
            assertEquals(dialers.slot(home), dialers.slot(first));
            assertEquals(dialers.slot(home), dialers.slot(second));
            CyclicBarrier together = new CyclicBarrier(2);
            AtomicInteger added = new AtomicInteger();
            Thread other = Thread.ofPlatform().start(() -> {
                if (awaitQuietly(together) && dialers.add(second)) {
                    added.incrementAndGet();
                }
            });
            if (awaitQuietly(together) && dialers.add(first)) {
                added.incrementAndGet();
            }
            other.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(other.isAlive(), "the other thread did not end in time");
            assertEquals(2, added.get(), "round " + round);
            assertTrue(dialers.contains(first) && dialers.contains(second), "round " + round + ": a key was lost");
            assertEquals(2, dialers.overflowing(), "round " + round);
        }
    }

    private static boolean awaitQuietly(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return false;
        }
    }
}
