package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.s3.S3ProxyFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a tier2 whose bucket does not exist, or whose credentials the server refuses, said only the SDK's
 * bracket of status codes at start ({@code tier2: can not reach bucket nosuch at http://…: (Service: S3, Status Code:
 * 404, Request ID: …) (SDK Attempt Count: 1) (Service: S3, …)}, or {@code Forbidden (Service: S3, Status Code: 403,
 * …)}): the reason, a mistyped bucket or wrong keys, was in no word of it. It is said now, naming the bucket.
 */
@Timeout(120)
class ABucketThatIsMissingOrRefusedIsSaidInWordsTest {

    @TempDir
    static Path dir;
    private static S3ProxyFixture s3;

    @BeforeAll
    static void startS3() throws Exception {
        s3 = S3ProxyFixture.start(dir.resolve("s3"));
        s3.createBucket("outputs");
    }

    @AfterAll
    static void stopS3() throws Exception {
        if (s3 != null) {
            s3.close();
        }
    }

    private record Said(int code, String err) {
    }

    private static Said start(String outputs) {
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=" + outputs, "--s3-endpoint=" + s3.endpoint(),
            "--worker=" + TestWorkers.Echo.class.getName()}, new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        return new Said(code, err.toString().strip());
    }

    private static void assertOneLineInWords(Said said) {
        assertEquals(1, said.code(), said.err());
        assertEquals(1, said.err().lines().count(), said.err());
        assertFalse(said.err().contains("Service: S3") || said.err().contains("SDK Attempt"),
                "the SDK's bracket instead of a reason: " + said.err());
    }

    @Test
    void aBucketThatDoesNotExistIsSaidNotToExist() {
        Said said = start("s3://no-such-bucket/requests");
        assertOneLineInWords(said);
        assertTrue(said.err().startsWith("tier2: ") && said.err().contains("no-such-bucket")
                && said.err().contains("does not exist"), said.err());
    }

    @Test
    void credentialsTheServerRefusesAreSaidToBeRefused() {
        // The SDK's chain asks the system properties before the environment the build sets with the right keys.
        String id = System.getProperty("aws.accessKeyId");
        String secret = System.getProperty("aws.secretAccessKey");
        System.setProperty("aws.accessKeyId", S3ProxyFixture.IDENTITY);
        System.setProperty("aws.secretAccessKey", "not-the-secret");
        try {
            Said said = start("s3://outputs/requests");
            assertOneLineInWords(said);
            assertTrue(said.err().startsWith("tier2: ") && said.err().contains("outputs")
                    && said.err().contains("access denied") && said.err().contains("credentials"), said.err());
        } finally {
            restore("aws.accessKeyId", id);
            restore("aws.secretAccessKey", secret);
        }
    }

    @Test
    void aBucketThatIsThereStillStarts() throws Exception {
        // The check is unchanged for a bucket that is there: the tier2 goes on to listen (start throws if not).
        Path logs = dir.resolve("bucket-there");
        try (Tier2Child child = Tier2Child.start(logs, java.util.Map.of(), "--outputs=s3://outputs/requests",
                "--s3-endpoint=" + s3.endpoint(), "--worker=" + TestWorkers.Echo.class.getName())) {
            assertTrue(child.address().startsWith("127.0.0.1:"), child.address());
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
