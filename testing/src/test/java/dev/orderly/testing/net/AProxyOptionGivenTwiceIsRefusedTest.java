package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Regression: the proxy process took an option given twice and kept the last ({@code --target=A --target=B}
 * forwarded to B), so a harness that appended an option to a command line that already had it ran against what it
 * did not mean, with no word. An option given twice is now refused, naming it and both values.
 */
class AProxyOptionGivenTwiceIsRefusedTest {

    @Test
    void aTargetGivenTwiceIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyOptions.parse(
                new String[] {"--listen=127.0.0.1:0", "--target=127.0.0.1:80", "--target=127.0.0.1:81"}));
        assertEquals("--target given twice: '--target=127.0.0.1:80' and '--target=127.0.0.1:81'", e.getMessage());
    }

    @Test
    void aDelayGivenTwiceIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyOptions.parse(
                new String[] {"--delay-ms=5", "--listen=127.0.0.1:0", "--target=127.0.0.1:80", "--delay-ms=0"}));
        assertEquals("--delay-ms given twice: '--delay-ms=5' and '--delay-ms=0'", e.getMessage());
    }
}
