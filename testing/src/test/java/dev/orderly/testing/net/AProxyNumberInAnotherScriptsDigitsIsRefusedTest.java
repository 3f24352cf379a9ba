package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Regression: the proxy process read its ports and delays with {@code Integer.parseInt} and {@code Long.parseLong},
 * which take any script's digits: {@code --target=127.0.0.1:٨٠} was port 80 and {@code delay-ms=٥} 5 ms. Numbers
 * are read in 0-9 only, as the engine's configuration now reads them.
 */
class AProxyNumberInAnotherScriptsDigitsIsRefusedTest {

    @Test
    void aPortInArabicIndicDigitsIsNotANumber() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyOptions.parse(
                new String[] {"--listen=127.0.0.1:0", "--target=127.0.0.1:\u0668\u0660"}));
        assertEquals("--target: port is not a number in '127.0.0.1:\u0668\u0660'", e.getMessage());
    }

    @Test
    void aDelayInArabicIndicDigitsIsNotANumber() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ProxyOptions.parseDelay("delay-ms", "\u0665"));
        assertEquals("delay-ms: expected a number of milliseconds, got '\u0665'", e.getMessage());
    }

    @Test
    void asciiNumbersAreReadAsBefore() {
        assertEquals(80, ProxyOptions.parseAddress("--target", "127.0.0.1:80").getPort());
        assertEquals(5, ProxyOptions.parseDelay("--delay-ms", "5").toMillis());
        assertEquals("--delay-ms: must be >= 0, got -1",
                assertThrows(IllegalArgumentException.class, () -> ProxyOptions.parseDelay("--delay-ms", "-1"))
                        .getMessage());
    }
}
