package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.EngineConfig;
import dev.orderly.engine.LaunchQueue;
import dev.orderly.engine.LaunchWindow;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Regression: a refused or failure delay longer than the clock counts in nanoseconds (about 292 years) was taken by
 * the launch queue's constructor and by {@code EngineConfig}, and then broke with a bare
 * {@code ArithmeticException: long overflow} (in {@code Engine.run}, before any dial). Both now refuse it naming the
 * delay and its value.
 */
class ADelayTooLongForTheClockIsRefusedByNameTest {

    private static final LaunchWindow WINDOW = LaunchWindow.of(EngineConfig.defaults());

    @Test
    void theLaunchQueueRefusesARefusedDelayTooLongForTheClock() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LaunchQueue(4, WINDOW, Duration.ofDays(365_000), Duration.ZERO, key -> { }));
        assertEquals("refusedDelay must be at most PT2562047H47M16.854775807S (about 292 years, the most nanoseconds"
                + " the clock counts), was PT8760000H", e.getMessage());
    }

    @Test
    void theLaunchQueueRefusesAFailureDelayTooLongForTheClock() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LaunchQueue(4, WINDOW, Duration.ZERO, Duration.ofSeconds(Long.MAX_VALUE), key -> { }));
        assertEquals("failureDelay must be at most PT2562047H47M16.854775807S (about 292 years, the most nanoseconds"
                + " the clock counts), was PT2562047788015215H30M7S", e.getMessage());
    }

    @Test
    void theLongestDelayTheClockCountsIsTaken() {
        Duration longest = Duration.ofNanos(Long.MAX_VALUE);
        new LaunchQueue(4, WINDOW, longest, longest, key -> { });
        assertEquals(longest, EngineConfig.builder().refusedDelay(longest).failureDelay(longest).build()
                .refusedDelay());
    }
}
