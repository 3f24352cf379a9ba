package dev.orderly.tier2;

import static dev.orderly.tier2.S3EndpointOption.s3EndpointLine;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression, after AnS3EndpointPortOutOfRangeIsABadOptionTest: a port with more digits than an int holds
 * ({@code http://127.0.0.1:99999999999}), or a sign ({@code :-1}, {@code :+80}), is no server address to {@link java.net.URI}, which
 * then takes the authority as registry-based: no host, port -1. The check "port above 65535" saw -1 and took the URL,
 * and the later check said "S3 endpoint must be an http:// or https:// URL with a host" of a URL that has one. The
 * port is what is wrong, as for {@code :99999}: said so.
 */
@Timeout(60)
class AnS3EndpointPortPastTheIntRangeIsABadOptionTest {

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:99999999999", "https://s3.example.com:4294967296/", "http://127.0.0.1:-1",
        "http://127.0.0.1:+80", "https://s3.example.com:+9000/"})
    void theEndpointIsABadOption(String endpoint) {
        String said = s3EndpointLine(endpoint);
        assertTrue(said.contains(endpoint) && said.contains("port"), said);
    }
}
