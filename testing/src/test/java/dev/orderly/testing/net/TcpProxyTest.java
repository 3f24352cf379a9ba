package dev.orderly.testing.net;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TcpProxyTest {

    private EchoServer echo;

    @BeforeEach
    void startEcho() throws IOException {
        echo = new EchoServer();
    }

    @AfterEach
    void stopEcho() {
        echo.close();
    }

    @Test
    void forwardsBytesBothWays() throws IOException {
        try (TcpProxy proxy = TcpProxy.start(echo.address()); Socket socket = connect(proxy)) {
            byte[] sent = "hello through the proxy".getBytes(StandardCharsets.UTF_8);
            socket.getOutputStream().write(sent);
            assertArrayEquals(sent, readExactly(socket, sent.length));
            assertEquals(1, proxy.connections());
        }
    }

    @Test
    void delayAppliesEachWaySoARoundTripTakesAtLeastTwice() throws IOException {
        try (TcpProxy proxy = TcpProxy.start(echo.address()).delay(Duration.ofMillis(250));
                Socket socket = connect(proxy)) {
            long start = System.nanoTime();
            socket.getOutputStream().write(new byte[] {1, 2, 3});
            assertArrayEquals(new byte[] {1, 2, 3}, readExactly(socket, 3));
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(elapsedMillis >= 500, "a round trip through a 250 ms proxy took only " + elapsedMillis + " ms");
        }
    }

    @Test
    void delayKeepsTheOrderOfALongStream() throws IOException {
        try (TcpProxy proxy = TcpProxy.start(echo.address()).delay(Duration.ofMillis(20));
                Socket socket = connect(proxy)) {
            byte[] sent = new byte[256 * 1024];
            for (int i = 0; i < sent.length; i++) {
                sent[i] = (byte) (i * 31);
            }
            Thread writer = Thread.ofPlatform().start(() -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    for (int off = 0; off < sent.length; off += 1000) {
                        out.write(sent, off, Math.min(1000, sent.length - off));
                        if (off == sent.length / 2) {
                            proxy.delay(Duration.ZERO); // a shorter delay mid-stream must not let chunks overtake
                        }
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            assertArrayEquals(sent, readExactly(socket, sent.length));
            writer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Test
    void aFrozenProxyMovesNoByteButKeepsTheConnectionUntilThawed() throws IOException {
        try (TcpProxy proxy = TcpProxy.start(echo.address()); Socket socket = connect(proxy)) {
            socket.getOutputStream().write(1);
            assertArrayEquals(new byte[] {1}, readExactly(socket, 1));

            proxy.freeze();
            socket.getOutputStream().write(2);
            socket.setSoTimeout(300);
            assertThrows(SocketTimeoutException.class, () -> socket.getInputStream().read(),
                    "a byte came back through a frozen proxy");
            assertEquals(1, proxy.connections());

            proxy.thaw();
            socket.setSoTimeout(10_000);
            assertArrayEquals(new byte[] {2}, readExactly(socket, 1));
        }
    }

    @Test
    void aFrozenProxyStillAcceptsConnectionsAndForwardsNothingOnThem() throws IOException {
        try (TcpProxy proxy = TcpProxy.start(echo.address())) {
            proxy.freeze();
            try (Socket socket = connect(proxy)) {
                socket.getOutputStream().write(7);
                socket.setSoTimeout(300);
                assertThrows(SocketTimeoutException.class, () -> socket.getInputStream().read());
                proxy.thaw();
                socket.setSoTimeout(10_000);
                assertArrayEquals(new byte[] {7}, readExactly(socket, 1));
            }
        }
    }

    @Test
    void cutResetsOpenConnectionsAndTheNextOneWorks() throws IOException {
        try (TcpProxy proxy = TcpProxy.start(echo.address())) {
            try (Socket first = connect(proxy)) {
                first.getOutputStream().write(1);
                readExactly(first, 1);
                proxy.cut();
                first.setSoTimeout(10_000);
                assertConnectionEnded(first);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> proxy.connections() == 0);
            try (Socket second = connect(proxy)) {
                second.getOutputStream().write(2);
                assertArrayEquals(new byte[] {2}, readExactly(second, 1));
            }
        }
    }

    @Test
    void cutEndsAFrozenConnectionToo() throws IOException {
        try (TcpProxy proxy = TcpProxy.start(echo.address()); Socket socket = connect(proxy)) {
            socket.getOutputStream().write(1);
            readExactly(socket, 1);
            proxy.freeze();
            proxy.cut();
            socket.setSoTimeout(10_000);
            assertConnectionEnded(socket);
        }
    }

    @Test
    void aTargetThatRefusesEndsTheAcceptedConnection() throws IOException {
        InetSocketAddress nobody;
        try (ServerSocket reserved = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            nobody = new InetSocketAddress(InetAddress.getLoopbackAddress(), reserved.getLocalPort());
        }
        try (TcpProxy proxy = TcpProxy.start(nobody); Socket socket = connect(proxy)) {
            socket.setSoTimeout(10_000);
            assertConnectionEnded(socket);
        }
    }

    @Test
    void anOrderlyCloseByTheClientClosesBothSides() throws IOException {
        try (TcpProxy proxy = TcpProxy.start(echo.address())) {
            Socket socket = connect(proxy);
            socket.getOutputStream().write(1);
            readExactly(socket, 1);
            socket.shutdownOutput();
            socket.setSoTimeout(10_000);
            assertEquals(-1, socket.getInputStream().read(), "the echo's end of stream came back");
            socket.close();
            await().atMost(Duration.ofSeconds(10)).until(() -> proxy.connections() == 0);
        }
    }

    @Test
    void closeStopsListening() throws IOException {
        TcpProxy proxy = TcpProxy.start(echo.address());
        InetSocketAddress address = proxy.address();
        proxy.close();
        try (Socket socket = new Socket()) {
            socket.connect(address, 5_000);
            // Linux connects a socket to itself when the free port it dials is the one it picks for the socket (a
            // port in the ephemeral range, as the proxy's was): nobody listened. Seen once in CI as "nothing thrown".
            assertEquals(address.getPort(), socket.getLocalPort(), "something still listens on " + address);
        } catch (ConnectException expected) {
            // refused: nothing listens
        }
    }

    /**
     * Regression: {@code close()} returned while the listening socket still accepted connections into its backlog (the
     * JDK closes a socket that a thread is blocked accepting on only once that thread has left {@code accept}), and
     * {@code closeStopsListening} failed once in CI with a connection made after {@code close()}.
     */
    @Test
    void closeReturnsOnlyOnceTheListenerIsGone() throws IOException {
        for (int i = 0; i < 300; i++) {
            closeStopsListening();
        }
    }

    @Test
    void asAProcessItPrintsItsAddressForwardsAndTakesCommands() throws Exception {
        Process process = new ProcessBuilder(javaCommand(), "-cp", System.getProperty("java.class.path"),
                TcpProxy.class.getName(), "--listen=127.0.0.1:0",
                "--target=127.0.0.1:" + echo.address().getPort(), "--delay-ms=1")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String first = out.readLine();
            assertTrue(first != null && first.startsWith("listening on 127.0.0.1:"), "first line: " + first);
            int port = Integer.parseInt(first.substring(first.lastIndexOf(':') + 1));
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket.getOutputStream().write(9);
                assertArrayEquals(new byte[] {9}, readExactly(socket, 1));
                process.getOutputStream().write("cut\n".getBytes(StandardCharsets.UTF_8));
                process.getOutputStream().flush();
                assertEquals("ok cut", out.readLine());
                socket.setSoTimeout(10_000);
                assertConnectionEnded(socket);
            }
        } finally {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void asAProcessABadOptionIsOneLineAndExitStatusTwo() throws Exception {
        Process process = new ProcessBuilder(javaCommand(), "-cp", System.getProperty("java.class.path"),
                TcpProxy.class.getName(), "--listen=127.0.0.1:0", "--target=127.0.0.1:99999")
                .redirectErrorStream(true)
                .start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(20, TimeUnit.SECONDS), "the proxy did not exit on a bad option");
            assertEquals(2, process.exitValue());
            assertEquals("tcp-proxy: --target: port must be 0..65535, got 99999 in '127.0.0.1:99999'",
                    output.strip());
        } finally {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String javaCommand() {
        return ProcessHandle.current().info().command().orElseThrow();
    }

    private static Socket connect(TcpProxy proxy) throws IOException {
        Socket socket = new Socket(proxy.address().getAddress(), proxy.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static byte[] readExactly(Socket socket, int n) throws IOException {
        byte[] bytes = socket.getInputStream().readNBytes(n);
        assertEquals(n, bytes.length, "the stream ended early");
        return bytes;
    }

    /** A reset or an end of stream; a timeout fails the test. */
    private static void assertConnectionEnded(Socket socket) throws IOException {
        try {
            assertEquals(-1, socket.getInputStream().read());
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the connection is still open", e);
        } catch (SocketException e) {
            // connection reset: ended
        }
    }

    /** A loopback echo server, one platform thread per connection. */
    private static final class EchoServer implements AutoCloseable {
        private final ServerSocket server;
        private final List<Socket> accepted = new ArrayList<>();

        EchoServer() throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread.ofPlatform().daemon().start(this::acceptLoop);
        }

        InetSocketAddress address() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
        }

        private void acceptLoop() {
            try {
                while (true) {
                    Socket socket = server.accept();
                    accepted.add(socket);
                    Thread.ofPlatform().daemon().start(() -> echo(socket));
                }
            } catch (IOException e) {
                // closed
            }
        }

        private static void echo(Socket socket) {
            try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // the peer went away
            }
        }

        @Override
        public void close() {
            try {
                server.close();
                for (Socket socket : List.copyOf(accepted)) {
                    socket.close();
                }
            } catch (IOException e) {
                // closing test sockets
            }
        }
    }
}
