package dev.orderly.tier2;

import static dev.orderly.tier2.S3EndpointOption.s3EndpointLine;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: an {@code --s3-endpoint} that Java's URI parser refuses (an IPv6 bracket left open, a space, a bad
 * escape) was refused in picocli's and Java's words: {@code tier2: Invalid value for option '--s3-endpoint': cannot
 * convert 'http://[x' to URI (java.net.URISyntaxException: Expected closing bracket for IPv6 address at index 9:
 * http://[x)}. It is one line naming the option and the value, with no Java class name.
 */
@Timeout(30)
class AnS3EndpointJavaCannotParseIsSaidInWordsTest {

    @ParameterizedTest
    @ValueSource(strings = {"http://[x", "http://my host:9000", "http://127.0.0.1:9000/%zz"})
    void theEndpointIsRefusedInWords(String endpoint) {
        String said = s3EndpointLine(endpoint);
        assertTrue(said.contains("'" + endpoint + "'"), said);
        assertFalse(said.contains("java.") || said.contains("Exception") || said.contains(" to URI"), said);
    }
}
