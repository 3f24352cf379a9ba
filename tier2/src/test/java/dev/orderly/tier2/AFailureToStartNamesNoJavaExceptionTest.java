package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a tier2 that could not reach its bucket, or bind its port, said so after Java's exception name
 * ({@code tier2: java.lang.IllegalStateException: can not reach bucket b at ...}), though the launcher promises one
 * line in its words for a failure to start, as it says an unknown worker class. Both are now the reason alone, exit 1.
 */
@Timeout(60)
class AFailureToStartNamesNoJavaExceptionTest {

    @Test
    void aBucketOutOfReachIsSaidWithoutJavasExceptionName() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            closed = s.getLocalPort();
        }
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=s3://outputs/requests",
            "--s3-endpoint=http://127.0.0.1:" + closed, "--worker=" + TestWorkers.Echo.class.getName()},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(1, code, err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().startsWith("tier2: can not reach bucket outputs at http://127.0.0.1:" + closed + ": "),
                err.toString());
    }

    @Test
    void aPortInUseIsSaidWithoutJavasExceptionName() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            StringWriter err = new StringWriter();
            int code = Tier2Main.execute(new String[] {"--outputs=target/tier2-start-failure",
                "--port=" + taken.getLocalPort(), "--worker=" + TestWorkers.Echo.class.getName()},
                    new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
            assertEquals(1, code, err.toString());
            assertEquals(1, err.toString().strip().lines().count(), err.toString());
            assertTrue(err.toString().startsWith("tier2: ") && !err.toString().contains("java."), err.toString());
            assertTrue(err.toString().contains(String.valueOf(taken.getLocalPort())), err.toString());
        }
    }
}
