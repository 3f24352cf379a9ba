package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Regression: a {@code --host} that names no address (a port written into it, {@code --host=127.0.0.1:9000}, or a
 * name that does not resolve) was said as {@code tier2: Failed to bind to address 127.0.0.1:9000/<unresolved>:0},
 * exit 1, naming neither the option nor why (Java's {@code <unresolved>} alone), or, without
 * {@code --insecure-plaintext}, as "{@code --host=127.0.0.1:9000 is not loopback: give --tls-cert and --tls-key}",
 * which sent the user to make certificates for an address that is loopback. It is a bad value: exit 2, one line
 * naming the option and the value and saying that it does not resolve.
 */
@Timeout(60)
class AHostThatIsNoAddressIsABadOptionTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "127.0.0.1:9000|",
        "127.0.0.1:9000|--insecure-plaintext",
        "no-such-host.invalid|--insecure-plaintext"})
    void theHostIsABadOption(String host, String more) {
        List<String> args = new ArrayList<>(List.of("--outputs=target/a-host-that-is-no-address", "--host=" + host,
                "--worker=" + TestWorkers.Echo.class.getName()));
        if (more != null) {
            args.add(more);
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(args.toArray(String[]::new), new PrintWriter(out, true),
                new PrintWriter(err, true));
        String said = err.toString().strip();
        assertEquals(2, code, said);
        assertEquals(1, said.lines().count(), said);
        assertTrue(said.startsWith("tier2: --host=" + host + " ") && said.contains("does not resolve"), said);
        assertFalse(said.contains("not loopback") || said.contains("<unresolved>"), said);
        assertEquals("", out.toString());
    }
}
