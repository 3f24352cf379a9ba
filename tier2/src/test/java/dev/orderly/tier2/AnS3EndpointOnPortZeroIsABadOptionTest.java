package dev.orderly.tier2;

import static dev.orderly.tier2.S3EndpointOption.s3EndpointLine;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An {@code --s3-endpoint} on port 0 ({@code http://127.0.0.1:0}, say a script's empty or unset port variable
 * defaulted to 0) names no port anything listens on, yet the option's check took 0..65535: the worker was made, the
 * bucket asked three times, and the start failed with exit 1 and {@code tier2: can not reach bucket outputs at
 * http://127.0.0.1:0: Unable to execute HTTP request: Connection refused (SDK Attempt Count: 3)} (or, with no AWS
 * credentials set, said nothing of the port). As 99999 is, it is a bad value: exit 2, one line naming the option.
 */
@Timeout(60)
class AnS3EndpointOnPortZeroIsABadOptionTest {

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:0", "https://s3.example.com:00/"})
    void theEndpointIsABadOption(String endpoint) {
        String said = s3EndpointLine(endpoint);
        assertTrue(said.contains(endpoint) && said.contains("port"), said);
    }
}
