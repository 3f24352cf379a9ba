package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Regression: {@code --delay-ms} given without {@code =N} was answered "expected a number of milliseconds, got
 * 'null'", as if the user had typed {@code null}; it now says it got nothing, as {@code --listen} and
 * {@code --target} do.
 */
class ADelayOptionWithoutAValueSaysSoTest {

    @Test
    void aDelayWithoutAValueSaysItGotNothing() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyOptions.parse(
                new String[] {"--listen=127.0.0.1:0", "--target=127.0.0.1:80", "--delay-ms"}));
        assertEquals("--delay-ms: expected a number of milliseconds, got nothing", e.getMessage());
    }
}
