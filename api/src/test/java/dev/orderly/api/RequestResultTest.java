package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link RequestResult}: counts are never negative, durations never null. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RequestResultTest {

    private static final Duration D = Duration.ofMillis(5);

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6})
    void aNegativeCountIsRejectedNamingTheField(int index) {
        long[] counts = new long[7];
        counts[index] = -1;
        String[] names = {"segmentsDelivered", "admissions", "dials", "refusals", "failures", "executionTimeouts",
                "reruns"};
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RequestResult(
                counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6], D, D));
        assertEquals(names[index] + " must be >= 0, was -1", e.getMessage());
    }

    @Test
    void aNullDurationIsRejectedNamingTheField() {
        assertEquals("timeToFirstSegment", assertThrows(NullPointerException.class,
                () -> new RequestResult(0, 0, 0, 0, 0, 0, 0, null, D)).getMessage());
        assertEquals("elapsed", assertThrows(NullPointerException.class,
                () -> new RequestResult(0, 0, 0, 0, 0, 0, 0, D, null)).getMessage());
    }

    @Test
    void noFirstSegmentIsASentinelTheOptionalTellsApart() {
        RequestResult none = new RequestResult(0, 0, 0, 0, 0, 0, 0, RequestResult.NO_FIRST_SEGMENT, D);
        assertEquals(java.util.Optional.empty(), none.firstSegment());
        RequestResult instant = new RequestResult(1, 1, 1, 0, 0, 0, 0, Duration.ZERO, D);
        assertEquals(java.util.Optional.of(Duration.ZERO), instant.firstSegment());
    }

    @Test
    void aNegativeDurationOtherThanTheSentinelIsRejectedNamingTheField() {
        assertEquals("timeToFirstSegment must be >= 0 or NO_FIRST_SEGMENT, was PT-0.005S",
                assertThrows(IllegalArgumentException.class,
                        () -> new RequestResult(0, 0, 0, 0, 0, 0, 0, D.negated(), D)).getMessage());
        assertEquals("elapsed must be >= 0, was PT-0.005S", assertThrows(IllegalArgumentException.class,
                () -> new RequestResult(0, 0, 0, 0, 0, 0, 0, D, D.negated())).getMessage());
    }
}
