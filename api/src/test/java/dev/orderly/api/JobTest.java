package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Job}: nulls are rejected naming the field; attempts count from 1. */
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
}
