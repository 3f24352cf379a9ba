package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: {@code --host=} (empty, as a script with an unset variable writes it) or blank was told "is not
 * loopback: give --tls-cert and --tls-key", or, with {@code --insecure-plaintext}, bound to the loopback address and
 * said "listening on :PORT": a value that names no address is a bad option, exit 2, saying so.
 */
@Timeout(60)
class AnEmptyHostIsABadOptionTest {

    @ParameterizedTest
    @ValueSource(strings = {"", " "})
    void theHostIsABadOption(String host) {
        for (boolean plaintext : new boolean[] {false, true}) {
            String[] args = plaintext
                    ? new String[] {"--outputs=target/an-empty-host", "--host=" + host, "--insecure-plaintext",
                        "--worker=" + TestWorkers.Echo.class.getName()}
                    : new String[] {"--outputs=target/an-empty-host", "--host=" + host,
                        "--worker=" + TestWorkers.Echo.class.getName()};
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Tier2Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
            String said = err.toString().strip();
            assertEquals(2, code, said);
            assertEquals(1, said.lines().count(), said);
            assertTrue(said.startsWith("tier2: --host must name an address, was '" + host + "'"), said);
            assertFalse(said.contains("not loopback"), said);
            assertEquals("", out.toString());
        }
    }
}
