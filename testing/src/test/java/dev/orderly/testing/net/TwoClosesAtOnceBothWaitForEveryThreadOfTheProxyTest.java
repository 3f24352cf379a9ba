package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code TcpProxy.close()} says that once it returns every thread of the proxy has ended. Two closes at
 * once (the command's {@code finally} and its shutdown hook, or a test's own close beside its try-with-resources) did
 * not: the one that took the open connections reset them and waited for their threads, while the other found none
 * left to wait for and returned at once, with the connections' threads still running. A close after a {@code cut()}
 * did not wait for the threads of the connections the cut reset either.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TwoClosesAtOnceBothWaitForEveryThreadOfTheProxyTest {

    private static final int LINKS = 64;

    @RepeatedTest(5)
    void eachOfTwoClosesAtOnceReturnsOnlyOnceEveryThreadHasEnded() throws Exception {
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
                Set<String> names = ConcurrentHashMap.newKeySet();
                names.add("tcp-proxy-accept-" + proxy.port());
                for (Socket c : clients) {
                    names.add("tcp-proxy-connect-" + c.getLocalPort());
                    for (String way : List.of("up", "down")) {
                        for (String end : List.of("read", "write")) {
                            names.add("tcp-proxy-" + c.getLocalPort() + "-" + way + "-" + end);
                        }
                    }
                }
                CyclicBarrier together = new CyclicBarrier(2);
                List<String> leftAfter = new ArrayList<>();
                List<Throwable> failed = new ArrayList<>();
                Runnable closer = () -> {
                    try {
                        together.await(10, TimeUnit.SECONDS);
                        proxy.close();
                        List<String> left = Thread.getAllStackTraces().keySet().stream()
                                .filter(Thread::isAlive).map(Thread::getName).filter(names::contains).toList();
                        synchronized (leftAfter) {
                            leftAfter.addAll(left);
                        }
                    } catch (Throwable t) {
                        synchronized (failed) {
                            failed.add(t);
                        }
                    }
                };
                Thread a = Thread.ofPlatform().name("closer-a").start(closer);
                Thread b = Thread.ofPlatform().name("closer-b").start(closer);
                a.join(Duration.ofSeconds(30));
                b.join(Duration.ofSeconds(30));
                assertEquals(List.of(), failed, "a close failed");
                assertEquals(0, leftAfter.size(), "threads of the proxy alive after a close() returned, such as "
                        + leftAfter.stream().limit(3).toList());
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

    @RepeatedTest(10)
    void aCloseAfterACutReturnsOnlyOnceEveryThreadHasEnded() throws Exception {
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
                Set<String> names = ConcurrentHashMap.newKeySet();
                names.add("tcp-proxy-accept-" + proxy.port());
                for (Socket c : clients) {
                    names.add("tcp-proxy-connect-" + c.getLocalPort());
                    for (String way : List.of("up", "down")) {
                        for (String end : List.of("read", "write")) {
                            names.add("tcp-proxy-" + c.getLocalPort() + "-" + way + "-" + end);
                        }
                    }
                }
                proxy.cut();
                proxy.close();
                List<String> left = Thread.getAllStackTraces().keySet().stream()
                        .filter(Thread::isAlive).map(Thread::getName).filter(names::contains).toList();
                assertEquals(0, left.size(), "alive after cut and close: " + left.stream().limit(3).toList());
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
