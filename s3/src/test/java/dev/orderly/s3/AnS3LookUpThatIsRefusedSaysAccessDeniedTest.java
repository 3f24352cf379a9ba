package dev.orderly.s3;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Regression: {@link S3OutputStore}'s javadoc says a 403 makes {@code read} and {@code contains} fail with "access
 * denied". A {@code HEAD}'s 403 has no error code, and {@code contains} (resume's look-up, the first call a resumed
 * request makes) said {@code can not look up s3://…: HTTP 403: Forbidden (Service: S3, Status Code: 403, …)}; a
 * {@code GET} refused for its signature said {@code HTTP 403 SignatureDoesNotMatch: Forbidden}. Neither said access
 * was denied. Both do now, with the bucket and the key.
 */
@Timeout(120)
class AnS3LookUpThatIsRefusedSaysAccessDeniedTest {

    @TempDir
    static Path dir;
    private static S3ProxyFixture s3;

    @BeforeAll
    static void startS3() throws Exception {
        s3 = S3ProxyFixture.start(dir);
        s3.createBucket("outputs");
    }

    @AfterAll
    static void stopS3() throws Exception {
        if (s3 != null) {
            s3.close();
        }
    }

    private static void assertAccessDenied(S3OutputStore store, IOException e) {
        String m = e.getMessage();
        assertTrue(m.contains("bucket outputs") && m.contains(store.keyOf(4)), m);
        assertTrue(m.toLowerCase(Locale.ROOT).contains("access denied"), "a 403 not said to be access denied: " + m);
    }

    @Test
    void aLookUpAndAReadRefusedWithA403SayAccessDenied() {
        try (S3Client wrong = S3Clients.create(s3.endpoint(),
                StaticCredentialsProvider.create(AwsBasicCredentials.create(S3ProxyFixture.IDENTITY, "wrong")))) {
            S3OutputStore store = S3OutputStore.builder().client(wrong).bucket("outputs").prefix("r-1/").build();
            assertAccessDenied(store, assertThrows(IOException.class, () -> store.contains(4)));
            assertAccessDenied(store, assertThrows(IOException.class, () -> store.read(4)));
            assertAccessDenied(store, assertThrows(IOException.class, () -> store.write(4, new byte[] {1})));
        }
    }
}
