package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server that stops reading (a stalled consumer, a full disk, a test's latch) holds its sender back through a
 * direct connection once the kernel's buffers are full. Through the proxy it did not: each reader took every byte it
 * could read into its delay line, however far its writer lagged, so the sender's writes all completed (no
 * back-pressure to test), and the proxy's heap, the test JVM's, grew by every byte sent: a quarter of a gigabyte here,
 * all of it, sooner or later, an OutOfMemoryError.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AReceiverThatStopsReadingHoldsBackTheSenderTest {

    private static final int MB = 1024 * 1024;
    private static final long ATTEMPT = 256L * MB;

    @Test
    void aSenderToAServerThatNeverReadsBlocksThroughTheProxyAsItWouldDirectly() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket server = new ServerSocket(0, 50, loopback)) {
            TcpProxy proxy = TcpProxy.start(new InetSocketAddress(loopback, server.getLocalPort()));
            Socket client = new Socket();
            Socket accepted = null;
            Thread writer = null;
            try {
                client.connect(proxy.address(), 10_000);
                server.setSoTimeout(10_000);
                accepted = server.accept(); // and never read from
                AtomicLong written = new AtomicLong();
                CountDownLatch done = new CountDownLatch(1);
                writer = Thread.ofPlatform().daemon().start(() -> {
                    byte[] block = new byte[MB];
                    try {
                        OutputStream out = client.getOutputStream();
                        while (written.get() < ATTEMPT) {
                            out.write(block);
                            written.addAndGet(block.length);
                        }
                        done.countDown();
                    } catch (IOException e) {
                        // closed at the end of the test
                    }
                });
                // Directly, the kernel buffers of both ends take a few MB at most; 256 MB in 10 s is 25 MB/s, far
                // below what loopback carries, so a proxy without back-pressure ends it long before.
                boolean finished = done.await(10, TimeUnit.SECONDS);
                assertFalse(finished, "all " + ATTEMPT / MB + " MB were written to a server that reads nothing");
                assertTrue(written.get() < ATTEMPT / 2,
                        written.get() / MB + " MB written to a server that reads nothing");
            } finally {
                proxy.close();
                client.close();
                if (accepted != null) {
                    accepted.close();
                }
                if (writer != null) {
                    writer.join(10_000);
                }
            }
        }
    }
}
