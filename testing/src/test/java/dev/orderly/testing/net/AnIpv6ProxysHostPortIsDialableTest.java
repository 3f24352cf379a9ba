package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code hostPort()} of a proxy listening on an IPv6 address (say {@code ::1}, or the loopback address
 * when the JVM prefers IPv6) was {@code 0:0:0:0:0:0:0:1:PORT}, which no URI, gRPC target or host:port reader can tell
 * apart from its port; an IPv6 host is written in brackets, {@code [0:0:0:0:0:0:0:1]:PORT}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnIpv6ProxysHostPortIsDialableTest {

    @Test
    void theHostPortOfAnIpv6ProxyBracketsTheHost() throws IOException {
        InetAddress v6Loopback = InetAddress.getByName("::1");
        try (ServerSocket target = new ServerSocket(0, 50, v6Loopback);
                TcpProxy proxy = TcpProxy.start(new InetSocketAddress(v6Loopback, 0),
                        new InetSocketAddress(v6Loopback, target.getLocalPort()))) {
            URI uri = URI.create("//" + proxy.hostPort()); // a URI authority, as a gRPC target is read
            assertEquals("[0:0:0:0:0:0:0:1]", uri.getHost(), "host of " + proxy.hostPort());
            assertEquals(proxy.port(), uri.getPort(), "port of " + proxy.hostPort());
        }
    }

    @Test
    void theHostPortOfAnIpv4ProxyIsUnchanged() throws IOException {
        try (ServerSocket target = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
                TcpProxy proxy = TcpProxy.start(new InetSocketAddress("127.0.0.1", 0),
                        new InetSocketAddress("127.0.0.1", target.getLocalPort()))) {
            assertEquals("127.0.0.1:" + proxy.port(), proxy.hostPort());
        }
    }
}
