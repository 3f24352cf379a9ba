package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code TcpProxy.close()} says that once it returns every thread of the proxy has ended. A connection
 * that reset itself (its target reset it, or the connect to the target failed) took itself out of the proxy's links
 * at once, while its threads (the pump that saw the reset, the pumps it interrupted) still ran: a close() right after
 * found no link to wait for and returned with them alive. A race, so repeated: before the fix 2 of the 30 repetitions
 * failed in one run on a loaded 2-vCPU machine, 6 of 60 in another.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ACloseWaitsForTheThreadsOfALinkThatResetItselfTest {

    private static final int LINKS = 128;

    @RepeatedTest(30)
    void aCloseRightAfterTheTargetResetEveryConnectionReturnsOnlyOnceTheirThreadsEnded() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        List<Socket> clients = new ArrayList<>();
        List<Socket> servers = new ArrayList<>();
        try (ServerSocket target = new ServerSocket(0, LINKS + 10, loopback)) {
            TcpProxy proxy = TcpProxy.start(new InetSocketAddress(loopback, target.getLocalPort()));
            try {
                for (int i = 0; i < LINKS; i++) {
                    Socket client = new Socket(loopback, proxy.port());
                    clients.add(client);
                    Socket server = target.accept();
                    servers.add(server);
                    client.getOutputStream().write(1);
                    assertEquals(1, server.getInputStream().read()); // this link's pumps run
                }
                Set<String> names = new HashSet<>();
                names.add("tcp-proxy-accept-" + proxy.port());
                for (Socket c : clients) {
                    names.add("tcp-proxy-connect-" + c.getLocalPort());
                    for (String way : List.of("up", "down")) {
                        for (String end : List.of("read", "write")) {
                            names.add("tcp-proxy-" + c.getLocalPort() + "-" + way + "-" + end);
                        }
                    }
                }
                // The target resets every connection: each link sees it and resets itself, not through the proxy.
                for (Socket s : servers) {
                    s.setSoLinger(true, 0);
                    s.close();
                }
                // Spun, not polled: the window between a link leaving the proxy's count and its threads' end is
                // what the close must cover, and a poll's interval would outlast it. Bounded either way.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (proxy.connections() > 0 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                assertEquals(0, proxy.connections(), "the links did not see their target's reset in 10 s");
                proxy.close();
                List<String> left = Thread.getAllStackTraces().keySet().stream()
                        .filter(Thread::isAlive).map(Thread::getName).filter(names::contains).toList();
                assertEquals(List.of(), left, "threads of the proxy alive after close() returned");
            } finally {
                proxy.close();
                for (Socket s : clients) {
                    s.close();
                }
                for (Socket s : servers) {
                    s.close();
                }
            }
        }
    }
}
