package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link RequestPlan}: every bound, with a message naming the field and the value. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RequestPlanTest {

    @ParameterizedTest(name = "RequestPlan({0}, {1}, {2}, {3}) -> {4}")
    @CsvSource(delimiter = '|', value = {
            "-1 | 10 | 1 | 1 | startSegment must be >= 0, was -1",
            "-9223372036854775808 | 10 | 1 | 1 | startSegment must be >= 0, was -9223372036854775808",
            "5 | 5 | 1 | 1 | endSegment must be > startSegment (5), was 5",
            "5 | 4 | 1 | 1 | endSegment must be > startSegment (5), was 4",
            "0 | 0 | 1 | 1 | endSegment must be > startSegment (0), was 0",
            "0 | -3 | 1 | 1 | endSegment must be > startSegment (0), was -3",
            "0 | 10 | 0 | 1 | stages must be >= 1, was 0",
            "0 | 10 | -2 | 1 | stages must be >= 1, was -2",
            "0 | 10 | 1 | 0 | workers must be >= 1, was 0",
            "0 | 10 | 1 | -2147483648 | workers must be >= 1, was -2147483648",
    })
    void aBadPlanIsRejectedNamingTheFieldAndTheValue(
            long start, long end, int stages, int workers, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RequestPlan(start, end, stages, workers));
        assertEquals(message, e.getMessage());
    }

    @Test
    void theSmallestPlanIsOneSegmentOneStageOneWorker() {
        RequestPlan plan = new RequestPlan(0, 1, 1, 1);
        assertEquals(1, plan.segmentCount());
        assertEquals(0, plan.lastStage());
    }

    @Test
    void segmentsAreHalfOpen() {
        RequestPlan plan = new RequestPlan(100, 250, 4, 8);
        assertEquals(150, plan.segmentCount());
        assertEquals(3, plan.lastStage());
    }

    @Test
    void theWidestPlanCountsWithoutOverflow() {
        assertEquals(Long.MAX_VALUE, new RequestPlan(0, Long.MAX_VALUE, 1, 1).segmentCount());
    }
}
