package dev.orderly.tier2;

import static dev.orderly.tier2.S3EndpointOption.s3EndpointLine;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An {@code --s3-endpoint} with a user and password in it ({@code http://local:local-secret@127.0.0.1:9000}) was taken:
 * the SDK does not sign with them, and the start's failure line printed the endpoint whole, the password with it, to
 * the log. It is a bad option, which says where the credentials go and shows no password, also when the rest of the
 * URL is what is wrong.
 */
@Timeout(60)
class AnS3EndpointWithAPasswordIsRefusedWithoutShowingItTest {

    @ParameterizedTest
    @ValueSource(strings = {"http://local:local-secret@127.0.0.1:9", "https://local:local-secret@s3.example.com/",
        "http://local:local-secret@my host:9000", "http://local:local-secret@127.0.0.1:99999"})
    void theEndpointIsRefusedAndThePasswordNotShown(String endpoint) {
        String said = s3EndpointLine(endpoint);
        assertFalse(said.contains("local-secret"), said);
        assertTrue(said.contains("***@"), said);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://local:local-secret@127.0.0.1:9", "http://local@127.0.0.1:9"})
    void theLineSaysWhereTheCredentialsGo(String endpoint) {
        String said = s3EndpointLine(endpoint);
        assertTrue(said.contains("AWS_ACCESS_KEY_ID"), said);
    }
}
