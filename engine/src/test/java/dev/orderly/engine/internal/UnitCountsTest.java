package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class UnitCountsTest {

    @Test
    void ofGivesTheCountsAskedForInsideAndAroundTheSharedOnes() {
        for (int dials = 0; dials <= 9; dials++) {
            for (int failures = 0; failures <= 2; failures++) {
                for (int timeouts = 0; timeouts <= 2; timeouts++) {
                    for (int successes = 0; successes <= 4; successes++) {
                        UnitCounts counts = UnitCounts.of(dials, failures, timeouts, successes);
                        assertEquals(new UnitCounts(dials, failures, timeouts, successes), counts);
                    }
                }
            }
        }
    }

    @Test
    void theCommonCountsAreSharedAndTheRestMadeEachTime() {
        // One dial, one success: how nearly every unit ends; its end allocates nothing for its counts.
        assertSame(UnitCounts.of(1, 0, 0, 1), UnitCounts.of(1, 0, 0, 1));
        assertSame(UnitCounts.of(0, 0, 0, 0), UnitCounts.of(0, 0, 0, 0));
        assertSame(UnitCounts.of(1, 0, 0, 0), UnitCounts.of(1, 0, 0, 0));
        assertSame(UnitCounts.of(7, 0, 0, 2), UnitCounts.of(7, 0, 0, 2));
        assertNotSame(UnitCounts.of(8, 0, 0, 1), UnitCounts.of(8, 0, 0, 1));
        assertNotSame(UnitCounts.of(1, 0, 0, 3), UnitCounts.of(1, 0, 0, 3));
        assertNotSame(UnitCounts.of(2, 1, 0, 1), UnitCounts.of(2, 1, 0, 1));
        assertNotSame(UnitCounts.of(2, 0, 1, 1), UnitCounts.of(2, 0, 1, 1));
    }

    @Test
    void aTallyStartsFromItsPriorAndGivesBackWhatItCounted() {
        UnitCounts.Tally tally = new UnitCounts.Tally(new UnitCounts(3, 1, 1, 1));
        tally.dials++;
        tally.failures++;
        tally.successes++;
        assertEquals(new UnitCounts(4, 2, 1, 2), tally.counts());
    }
}
