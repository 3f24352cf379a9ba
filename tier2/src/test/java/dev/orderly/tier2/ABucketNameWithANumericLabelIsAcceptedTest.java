package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Regression: {@code --outputs=s3://logs.2024/requests} was refused as "must be s3://BUCKET/PREFIX". The bucket was
 * read as the URI's host, which Java leaves null when the last dot-label starts with a digit, though S3 takes such a
 * name. The bucket is the URI's authority, held to the rule of {@code S3OutputStore.Builder.bucket}.
 */
@Timeout(60)
class ABucketNameWithANumericLabelIsAcceptedTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "s3://logs.2024/requests|logs.2024|requests/",
        "s3://bucket.1a/x|bucket.1a|x/",
        "s3://123/|123|''"})
    void aBucketWhoseLastLabelStartsWithADigitIsTheBucket(String value, String bucket, String prefix) {
        OutputLocation l = OutputLocation.parse(value);
        assertEquals(bucket, l.bucket());
        assertEquals(prefix, l.prefix());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "s3://logs.2024:9000/x|logs.2024:9000",
        "s3://me@logs.2024/x|me@logs.2024",
        "s3://bucket:9000/x|bucket:9000",
        "s3://LOGS.2024/x|LOGS.2024",
        "s3://logs%2E2024/x|logs%2E2024",
        "s3://10.20.30.40/x|formatted as an IP address"})
    void anAuthorityThatIsNoBucketNameIsStillRefusedNamingIt(String value, String says) {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> OutputLocation.parse(value));
        assertTrue(e.getMessage().startsWith("--outputs=" + value) && e.getMessage().contains(says), e.getMessage());
    }

    @Test
    void theProcessGoesOnToCheckThatBucket() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            closed = s.getLocalPort();
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=s3://logs.2024/requests",
            "--s3-endpoint=http://127.0.0.1:" + closed, "--worker=" + TestWorkers.Echo.class.getName()},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(1, code, err.toString());
        assertTrue(err.toString().contains("can not reach bucket logs.2024 at http://127.0.0.1:" + closed),
                err.toString());
    }
}
