package dev.orderly.tier2;

import static dev.orderly.tier2.S3EndpointOption.s3EndpointLine;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: an {@code --s3-endpoint} whose port no TCP port can be ({@code http://127.0.0.1:99999}, a digit too
 * many) parsed as a URL, so it was taken: the worker was made and the bucket asked, and the start failed with exit 1
 * and {@code tier2: can not reach bucket bucket at http://127.0.0.1:99999: port out of range:99999}, naming no option
 * (or, on a machine without AWS credentials, said nothing of the port at all). It is a bad value: exit 2, one line
 * naming the option and the value, before the bucket is asked.
 */
@Timeout(60)
class AnS3EndpointPortOutOfRangeIsABadOptionTest {

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:99999", "https://s3.example.com:65536/"})
    void theEndpointIsABadOption(String endpoint) {
        String said = s3EndpointLine(endpoint);
        assertTrue(said.contains(endpoint) && said.contains("port"), said);
    }
}
