package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code close()} on a thread whose interrupt flag was set (a try-with-resources in a test that JUnit's
 * {@code @Timeout} interrupted, say) returned at once, without waiting for the acceptor to leave {@code accept} or for
 * the links' threads: the proxy could still take connections, and its threads outlived it. It now waits as always
 * (each wait is bounded) and keeps the interrupt on the thread.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ACloseOnAnInterruptedThreadStillLeavesNothingTest {

    @RepeatedTest(30)
    void anInterruptedCloseStillWaitsForEveryThreadOfTheProxy() throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket target = new ServerSocket(0, 50, loopback)) {
            TcpProxy proxy = TcpProxy.start(new InetSocketAddress(loopback, target.getLocalPort()));
            try (Socket client = new Socket(loopback, proxy.port()); Socket server = target.accept()) {
                client.getOutputStream().write(1);
                assertEquals(1, server.getInputStream().read()); // the link's pumps run
                Thread.currentThread().interrupt();
                proxy.close();
                assertTrue(Thread.interrupted(), "close() kept the interrupt on the thread");
                List<String> left = Thread.getAllStackTraces().keySet().stream()
                        .filter(Thread::isAlive).map(Thread::getName)
                        .filter(name -> name.equals("tcp-proxy-accept-" + proxy.port())
                                || name.startsWith("tcp-proxy-" + client.getLocalPort() + "-")
                                || name.equals("tcp-proxy-connect-" + client.getLocalPort()))
                        .toList();
                assertEquals(List.of(), left, "threads of the proxy alive after close() returned");
            } finally {
                Thread.interrupted();
                proxy.close();
            }
        }
    }
}
