package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.EngineConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The window's size for a worker count, and the bad values it refuses, naming them. */
class LaunchWindowTest {

    @Test
    void theDefaultsGiveTheWindowsOfTheRule() {
        LaunchWindow defaults = LaunchWindow.of(EngineConfig.defaults());
        assertEquals(new LaunchWindow(20, 2, 15), defaults);
        assertEquals(2, defaults.size(10));
        assertEquals(10, defaults.size(50));
        assertEquals(15, defaults.size(200));
        assertEquals(2, defaults.size(1));
    }

    @Test
    void aLargeWorkerCountDoesNotOverflowTheShare() {
        assertEquals(15, new LaunchWindow(100, 2, 15).size(Integer.MAX_VALUE));
    }

    @Test
    void badValuesAreRefusedNamingTheFieldAndTheValue() {
        assertEquals("launch window percent must be between 1 and 100, was 0",
                assertThrows(IllegalArgumentException.class, () -> new LaunchWindow(0, 2, 15)).getMessage());
        assertEquals("launch window min must be >= 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> new LaunchWindow(20, 0, 15)).getMessage());
        assertEquals("launch window max must be >= min (3), was 2",
                assertThrows(IllegalArgumentException.class, () -> new LaunchWindow(20, 3, 2)).getMessage());
        assertEquals("workers must be >= 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> new LaunchWindow(20, 2, 15).size(0)).getMessage());
    }

    @Test
    void aQueueBuiltFromTheWindowAndDelaysAloneHasThatWindow() {
        LaunchQueue queue = new LaunchQueue(50, new LaunchWindow(20, 2, 15), Duration.ofMillis(100),
                Duration.ofSeconds(5), key -> { });
        assertEquals(10, queue.windowSize());
        assertEquals("LaunchQueue[window=10, refusedDelay=100ms, failureDelay=5000ms]", queue.toString());
        assertThrows(IllegalArgumentException.class, () -> new LaunchQueue(50, new LaunchWindow(20, 2, 15),
                Duration.ofMillis(-1), Duration.ZERO, key -> { }));
    }
}
