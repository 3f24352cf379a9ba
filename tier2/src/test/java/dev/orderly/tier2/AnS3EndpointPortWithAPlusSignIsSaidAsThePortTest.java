package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * After AnS3EndpointPortPastTheIntRangeIsABadOptionTest: a port with a sign is said as the port, the CHANGELOG says,
 * but the check knew only the minus: {@code http://127.0.0.1:+80} (a plus is no digit to {@link java.net.URI}, which
 * then takes the authority as registry-based: no host) was still said as "S3 endpoint must be an http:// or https://
 * URL with a host", exit 1, of a URL with one.
 */
@Timeout(60)
class AnS3EndpointPortWithAPlusSignIsSaidAsThePortTest {

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:+80", "https://s3.example.com:+9000/"})
    void thePortIsSaid(String endpoint) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=s3://bucket/requests", "--s3-endpoint=" + endpoint,
            "--worker=" + TestWorkers.Echo.class.getName()}, new PrintWriter(out, true), new PrintWriter(err, true));
        String said = err.toString().strip();
        assertEquals(2, code, said);
        assertEquals(1, said.lines().count(), said);
        assertTrue(said.startsWith("tier2: --s3-endpoint") && said.contains(endpoint) && said.contains("port"), said);
        assertEquals("", out.toString());
    }
}
