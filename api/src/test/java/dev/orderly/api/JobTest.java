package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Job}: nulls are rejected naming the field; attempts count from 1; the rank is never negative; the stage count
 * is 0 (not known) or above the job's stage.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class JobTest {

    private static final JobKey KEY = new JobKey(3, 1);

    @Test
    void aNullRequestIdIsRejectedNamingTheField() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> new Job(null, KEY, 1));
        assertEquals("requestId", e.getMessage());
    }

    @Test
    void aNullKeyIsRejectedNamingTheField() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> new Job("r", null, 1));
        assertEquals("key", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void anAttemptBelowOneIsRejectedNamingTheFieldAndTheValue(int attempt) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Job("r", KEY, attempt));
        assertEquals("attempt must be >= 1, was " + attempt, e.getMessage());
    }

    @Test
    void theFirstAttemptIsOne() {
        Job job = new Job("r-1", KEY, 1);
        assertEquals("r-1", job.requestId());
        assertEquals(KEY, job.key());
        assertEquals(1, job.attempt());
    }

    @Test
    void theThreeArgumentJobWaitsForItsOwnSegment() {
        Job job = new Job("r", KEY, 2);
        assertEquals(3, job.readingSegment());
        assertEquals(0, job.rank());
        assertEquals(new Job("r", KEY, 2, 3), job);
    }

    @Test
    void theRankIsHowFarTheJobIsAheadOfItsClient() {
        Job job = new Job("r", new JobKey(10, 0), 1, 4);
        assertEquals(4, job.readingSegment());
        assertEquals(6, job.rank());
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, 4, Long.MAX_VALUE, Long.MIN_VALUE})
    void aReadingSegmentBelowZeroOrPastTheJobsSegmentIsRejectedNamingTheFieldAndTheValue(long reading) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Job("r", KEY, 1, reading));
        assertEquals("readingSegment must be between 0 and the job's segment 3, was " + reading, e.getMessage());
    }

    @Test
    void aNullKeyIsRejectedNamingTheFieldByTheFourArgumentConstructorToo() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> new Job("r", null, 1, 0));
        assertEquals("key", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 1, Integer.MIN_VALUE})
    void aStageCountBelowZeroOrNotAboveTheJobsStageIsRejectedNamingTheFieldAndTheValue(int stages) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Job("r", KEY, 1, 0, stages));
        assertEquals("stages must be 0 (not known) or above the job's stage 1, was " + stages, e.getMessage());
    }

    @Test
    void theStageCountIsNotKnownUnlessGiven() {
        assertEquals(0, new Job("r", KEY, 1).stages());
        assertEquals(0, new Job("r", KEY, 1, 2).stages());
        assertEquals(2, new Job("r", KEY, 1, 2, 2).stages());
    }
}
