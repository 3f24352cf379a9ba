package dev.orderly.grpc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tier2 that is down, for tests: a loopback port that takes each connection and resets it at once (no HTTP/2), as a
 * dead pod's port behind a proxy does. It counts the connections, so a test counts a client's connection attempts.
 * {@link #close()} frees the port, for a tier2 to take next.
 */
final class ResettingPort implements AutoCloseable {

    private final ServerSocket socket;
    private final AtomicInteger connects = new AtomicInteger();
    private final Thread acceptor;

    ResettingPort() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofVirtual().start(() -> {
            while (true) {
                try (Socket s = socket.accept()) {
                    connects.incrementAndGet();
                    s.setSoLinger(true, 0); // a reset: no TIME_WAIT left on the port the tier2 takes next
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    int port() {
        return socket.getLocalPort();
    }

    /** The connections taken so far. */
    int connects() {
        return connects.get();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        socket.close();
        if (!acceptor.join(Duration.ofSeconds(10))) {
            throw new IllegalStateException("the acceptor of port " + port() + " did not end");
        }
    }
}
