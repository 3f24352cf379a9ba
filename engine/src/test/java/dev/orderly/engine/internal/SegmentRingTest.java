package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The ring's slots: a window of its size never wraps onto itself, whatever the size. */
class SegmentRingTest {

    @Test
    void aWindowOfTheRingsSizeKeepsEachSegmentApart() {
        for (int size = 1; size <= 9; size++) {
            SegmentRing ring = new SegmentRing(size);
            assertEquals(size, ring.size(), "the size is the window's, whatever the capacity");
            for (long start : new long[] {0, 5, 1L << 40}) {
                for (int i = 0; i < size; i++) {
                    ring.launch(start + i, i);
                }
                for (int i = 0; i < size; i++) {
                    assertEquals(i, ring.launched(start + i), "size " + size + ", segment " + (start + i));
                    assertEquals(-1, ring.done(start + i));
                    ring.clear(start + i);
                    assertEquals(-1, ring.launched(start + i), "cleared");
                }
            }
        }
    }

    @Test
    void aClearedSlotServesTheSegmentACapacityFurtherOn() {
        SegmentRing ring = new SegmentRing(3); // a capacity of 4
        UnitCounts counts = new UnitCounts(1, 0, 0, 1);
        ring.markDone(5, 1);
        ring.lastStageCounts(5, counts);
        ring.markDone(6, 0);
        ring.launch(7, 2);
        ring.launch(8, 0);
        assertEquals(1, ring.done(5), "segment 8 has a slot of its own, not segment 5's");
        assertSame(counts, ring.lastStageCounts(5));
        assertEquals(0, ring.done(6));
        assertEquals(2, ring.launched(7));
        assertEquals(-1, ring.done(7));
        assertTrue(ring.invariantsHold(5, 1));

        ring.clear(5);
        assertNull(ring.lastStageCounts(5));
        ring.launch(9, 1);
        assertEquals(1, ring.launched(9));
        assertEquals(-1, ring.done(9), "nothing of segment 5 is left in the slot");
    }

    @Test
    void aSizeOutsideOneToTwoToTheThirtyIsRefusedByName() {
        for (int size : new int[] {0, -1, (1 << 30) + 1, Integer.MAX_VALUE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SegmentRing(size));
            assertTrue(e.getMessage().contains(Integer.toString(size)), e.getMessage());
        }
    }

    @Test
    void theCapacityIsTheSizeRoundedUpToAPowerOfTwo() {
        // Segments a capacity apart share a slot: what one left there is what the other reads until it is cleared.
        // Any segment nearer stands apart, so a larger capacity would only cost memory (twice as much, past a power).
        int[][] sizeAndCapacity = {{1, 1}, {2, 2}, {3, 4}, {4, 4}, {5, 8}, {8, 8}, {9, 16}, {1 << 20, 1 << 20}};
        for (int[] pair : sizeAndCapacity) {
            SegmentRing ring = new SegmentRing(pair[0]);
            long capacity = pair[1];
            ring.launch(7, 1);
            assertEquals(1, ring.launched(7 + capacity), "size " + pair[0] + ": the slot a capacity further on");
            if (capacity > 1) {
                assertEquals(-1, ring.launched(7 + capacity / 2), "size " + pair[0] + ": half a capacity on");
            }
        }
    }
}
