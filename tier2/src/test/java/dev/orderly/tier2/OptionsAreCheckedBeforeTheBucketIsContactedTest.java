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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: the bucket was checked (a HEAD over the network, up to 90 s) before the host and TLS options, so
 * {@code --host=0.0.0.0} without TLS and an S3 endpoint out of reach exited 1 with a bucket error instead of 2 naming
 * {@code --host}, and the S3 client stayed open when the security options threw. Every option is checked before the
 * worker is made or the bucket contacted.
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
}
