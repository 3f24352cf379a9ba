package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.grpc.JobWorker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: the bucket was checked (a HEAD over the network, up to 90 s) before the host and TLS options, so
 * {@code --host=0.0.0.0} without TLS and an S3 endpoint out of reach exited 1 with a bucket error instead of 2 naming
 * {@code --host}, and the S3 client stayed open when the security options threw. Every option is checked before the
 * worker is made or the bucket contacted.
 *
 * <p>Regression: {@code --outputs=s3://a..b/p} and other bucket names S3 refuses (formatted as an IP address, a prefix
 * or suffix S3 keeps for itself) passed the option check: the tier2 went on to ask the bucket and ended with exit 1,
 * "can not reach bucket", which blames the network. They are a bad option, exit 2, naming the rule and the name.
 */
@Timeout(60)
class OptionsAreCheckedBeforeTheBucketIsContactedTest {

    /** Counts the workers made, so that a test sees none was. */
    public static final class Counting implements JobWorkerProvider {
        static final AtomicInteger MADE = new AtomicInteger();

        @Override
        public JobWorker create(List<String> options) {
            MADE.incrementAndGet();
            return (job, work) -> {
            };
        }
    }

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--host=0.0.0.0|--host=0.0.0.0 is not loopback",
        "--tls-cert=target/no-cert.pem|--tls-cert and --tls-key go together",
        "--token-file=target/no-such-token-file|target/no-such-token-file"})
    void aBadSecurityOptionIsNamedAndNothingIsContactedOrMade(String optionAndSays) throws Exception {
        String[] parts = optionAndSays.split("\\|");
        int before = Counting.MADE.get();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=s3://outputs/requests",
            "--s3-endpoint=http://127.0.0.1:" + closedPort(), "--worker=" + Counting.class.getName(), parts[0]},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().contains(parts[1]), err.toString());
        assertEquals(before, Counting.MADE.get(), "the worker was made before the options were all checked");
    }

    @Test
    void aBadHostWithDirectoryOutputsMakesNoWorkerEither() {
        int before = Counting.MADE.get();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=target/tier2-options-first",
            "--worker=" + Counting.class.getName(), "--host=0.0.0.0"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertEquals(before, Counting.MADE.get(), "the worker was made before the options were all checked");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "a..b|must not have two periods in a row, was 'a..b'",
        "192.168.5.4|must not be formatted as an IP address, was '192.168.5.4'",
        "xn--bucket|must not start with 'xn--' (S3 keeps it for itself), was 'xn--bucket'",
        "sthree-bucket|must not start with 'sthree-' (S3 keeps it for itself), was 'sthree-bucket'",
        "bucket-s3alias|must not end with '-s3alias' (S3 keeps it for itself), was 'bucket-s3alias'",
        "bucket--ol-s3|must not end with '--ol-s3' (S3 keeps it for itself), was 'bucket--ol-s3'",
    })
    void bugABucketNameS3RefusesWasFoundOnlyAtTheBucket(String bucket, String rule) throws Exception {
        int before = Counting.MADE.get();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=s3://" + bucket + "/requests",
            "--s3-endpoint=http://127.0.0.1:" + closedPort(), "--worker=" + Counting.class.getName()},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertEquals("tier2: --outputs=s3://" + bucket + "/requests: bucket " + rule + " (see --help)",
                err.toString().strip());
        assertEquals("", out.toString());
        assertEquals(before, Counting.MADE.get(), "the worker was made before the options were all checked");
    }
}
