package dev.orderly.testing.net;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * While frozen "no byte moves either way", and {@code close()} "resets every connection". But close woke every pump
 * the freeze held before it reset their links (one after another): each woken pump went on, as if thawed, and a link
 * reset late had by then delivered what the freeze held. A server behind a frozen proxy that a test then closed saw
 * requests the test meant never to reach it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClosingAFrozenProxyLetsNoHeldByteThroughTest {

    private static final int LINKS = 100;

    @Test
    void noServerGetsAByteSentWhileFrozenWhenTheProxyIsClosed() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        List<Socket> clients = new ArrayList<>();
        List<Socket> accepted = new ArrayList<>();
        try (ServerSocket server = new ServerSocket(0, LINKS * 2, loopback)) {
            server.setSoTimeout(10_000);
            TcpProxy proxy = TcpProxy.start(new InetSocketAddress(loopback, server.getLocalPort()));
            try {
                proxy.freeze();
                for (int i = 0; i < LINKS; i++) {
                    Socket client = new Socket();
                    clients.add(client);
                    client.connect(proxy.address(), 10_000);
                    client.getOutputStream().write('x');
                    client.getOutputStream().flush();
                    accepted.add(server.accept());
                }
                await().atMost(Duration.ofSeconds(10)).until(() -> proxy.connections() == LINKS);
            } finally {
                proxy.close();
            }
            int delivered = 0;
            for (Socket socket : accepted) {
                socket.setSoTimeout(10_000);
                try {
                    InputStream in = socket.getInputStream();
                    if (in.read() == 'x') {
                        delivered++;
                    }
                } catch (IOException reset) {
                    // what close() promises: the connection reset, nothing through
                }
            }
            assertEquals(0, delivered, "servers that got the byte a frozen proxy held, of " + LINKS);
        } finally {
            for (Socket s : clients) {
                s.close();
            }
            for (Socket s : accepted) {
                s.close();
            }
        }
    }
}
