package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link JobKey}: the launch order, and its bounds. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class JobKeyTest {

    @Test
    void aLowerSegmentLaunchesFirstWhateverTheStage() {
        assertTrue(new JobKey(1, 0).compareTo(new JobKey(2, 9)) < 0);
        assertTrue(new JobKey(2, 9).compareTo(new JobKey(1, 0)) > 0);
    }

    @Test
    void withinASegmentTheHighestStageLaunchesFirst() {
        assertTrue(new JobKey(5, 3).compareTo(new JobKey(5, 1)) < 0);
        assertTrue(new JobKey(5, 0).compareTo(new JobKey(5, 2)) > 0);
    }

    @Test
    void theOrderIsConsistentWithEquals() {
        assertEquals(0, new JobKey(7, 2).compareTo(new JobKey(7, 2)));
        assertEquals(new JobKey(7, 2), new JobKey(7, 2));
        assertEquals(new JobKey(7, 2).hashCode(), new JobKey(7, 2).hashCode());
    }

    @Test
    void theExtremesCompareWithoutOverflow() {
        JobKey last = new JobKey(Long.MAX_VALUE, 0);
        JobKey first = new JobKey(0, Integer.MAX_VALUE);
        assertTrue(first.compareTo(last) < 0);
        assertTrue(last.compareTo(first) > 0);
        assertTrue(new JobKey(0, Integer.MAX_VALUE).compareTo(new JobKey(0, 0)) < 0);
    }

    @Test
    void sortingAShuffledGridGivesTheLaunchOrder() {
        List<JobKey> expected = new ArrayList<>();
        for (long segment = 0; segment < 20; segment++) {
            for (int stage = 3; stage >= 0; stage--) {
                expected.add(new JobKey(segment, stage));
            }
        }
        List<JobKey> shuffled = new ArrayList<>(expected);
        Collections.shuffle(shuffled, new Random(42));
        Collections.sort(shuffled);
        assertEquals(expected, shuffled);
        assertEquals(expected, new ArrayList<>(new TreeSet<>(expected.reversed())));
    }

    @ParameterizedTest(name = "JobKey({0}, {1}) -> {2}")
    @CsvSource(delimiter = '|', value = {
            "-1 | 0 | segment must be >= 0, was -1",
            "-9223372036854775808 | 0 | segment must be >= 0, was -9223372036854775808",
            "0 | -1 | stage must be >= 0, was -1",
            "3 | -2147483648 | stage must be >= 0, was -2147483648",
    })
    void aNegativeSegmentOrStageIsRejectedNamingTheFieldAndTheValue(long segment, int stage, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new JobKey(segment, stage));
        assertEquals(message, e.getMessage());
    }

    @Test
    void zeroIsAValidSegmentAndStage() {
        JobKey key = new JobKey(0, 0);
        assertEquals(0, key.segment());
        assertEquals(0, key.stage());
    }

    @Test
    void itPrintsAsInEveryLogLine() {
        assertEquals("segment 12 stage 2", new JobKey(12, 2).toString());
    }

    @Test
    void comparingWithNullIsANullPointerException() {
        assertThrows(NullPointerException.class, () -> new JobKey(1, 1).compareTo(null));
    }
}
