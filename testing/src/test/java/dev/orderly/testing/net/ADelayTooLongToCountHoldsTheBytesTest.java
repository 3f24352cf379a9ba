package dev.orderly.testing.net;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code delay(Duration)} takes any duration {@code >= 0}, but one near or over {@link Long#MAX_VALUE}
 * nanoseconds (about 292 years: a test's "never") overflowed in the connection's reader: a delay just under it
 * wrapped the due time into the past and sent every byte at once, and one over it threw an
 * {@code ArithmeticException} that killed the reader, so the link no longer noticed its client going away. Such a
 * delay now holds the bytes until the link is cut or closed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ADelayTooLongToCountHoldsTheBytesTest {

    @Test
    void aDelayOfAlmostLongMaxValueNanosecondsHoldsTheBytes() throws IOException {
        heldAndTheLinkStillSeesItsClientGo(Duration.ofNanos(Long.MAX_VALUE - 1));
    }

    @Test
    void aDelayTooLongToCountInNanosecondsHoldsTheBytes() throws IOException {
        heldAndTheLinkStillSeesItsClientGo(Duration.ofSeconds(Long.MAX_VALUE));
    }

    private static void heldAndTheLinkStillSeesItsClientGo(Duration delay) throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket target = new ServerSocket(0, 50, loopback);
                TcpProxy proxy = TcpProxy.start(new InetSocketAddress(loopback, target.getLocalPort())).delay(delay);
                Socket client = new Socket(loopback, proxy.port());
                Socket server = target.accept()) {
            client.getOutputStream().write(7);
            client.getOutputStream().flush();
            server.setSoTimeout(2_000); // the delay is some 10^11 times longer
            assertThrows(SocketTimeoutException.class, () -> server.getInputStream().read(),
                    "a byte delayed by " + delay + " arrived");
            client.setSoLinger(true, 0);
            client.close(); // a reset: the link's reader hears it and resets the link
            await().atMost(Duration.ofSeconds(10)).until(() -> proxy.connections() == 0);
        }
    }
}
