package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A loopback target, a {@link TcpProxy} to it and {@code n} connections through the proxy, each with its pumps seen
 * running (a byte passed up), for the tests that check which of the proxy's threads outlive a {@code close()} or a
 * {@code cut()}. Closing it closes the proxy, every socket and the target.
 */
final class ProxiedLinks implements AutoCloseable {

    private final ServerSocket target;
    private final TcpProxy proxy;
    private final List<Socket> clients = new ArrayList<>();
    private final List<Socket> servers = new ArrayList<>();
    private final Set<String> threadNames;

    ProxiedLinks(int n) throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        target = new ServerSocket(0, n + 10, loopback);
        TcpProxy started = null;
        try {
            started = TcpProxy.start(new InetSocketAddress(loopback, target.getLocalPort()));
            for (int i = 0; i < n; i++) {
                Socket client = new Socket(loopback, started.port());
                clients.add(client);
                Socket server = target.accept();
                servers.add(server);
                client.getOutputStream().write(1);
                assertEquals(1, server.getInputStream().read()); // this link's pumps run
            }
        } catch (IOException | RuntimeException | Error e) {
            closeAll(started);
            throw e;
        }
        proxy = started;
        List<String> names = new ArrayList<>();
        names.add("tcp-proxy-accept-" + proxy.port());
        for (Socket c : clients) {
            names.add("tcp-proxy-connect-" + c.getLocalPort());
            for (String way : List.of("up", "down")) {
                for (String end : List.of("read", "write")) {
                    names.add("tcp-proxy-" + c.getLocalPort() + "-" + way + "-" + end);
                }
            }
        }
        threadNames = Set.copyOf(names);
    }

    TcpProxy proxy() {
        return proxy;
    }

    /** The target's ends of the connections. */
    List<Socket> servers() {
        return servers;
    }

    /** The names of the proxy's threads (its acceptor's and every link's) that are alive now. */
    List<String> aliveThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive).map(Thread::getName).filter(threadNames::contains).toList();
    }

    @Override
    public void close() throws IOException {
        closeAll(proxy);
    }

    private void closeAll(TcpProxy p) throws IOException {
        try (target) {
            if (p != null) {
                p.close();
            }
            for (Socket s : clients) {
                s.close();
            }
            for (Socket s : servers) {
                s.close();
            }
        }
    }
}
