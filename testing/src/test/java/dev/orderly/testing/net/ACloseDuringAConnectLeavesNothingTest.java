package dev.orderly.testing.net;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code TcpProxy.close()} (and {@code cut()}) left the proxy's connect to the target running when it came
 * while that connect was under way: the socket was the connecting thread's alone, so nothing closed it, and the thread
 * lived on for up to the connect's 10 s, and could still open a connection to the target after {@code close()} had
 * returned. The link now closes a socket still connecting, and {@code close()} returns once its threads have ended.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ACloseDuringAConnectLeavesNothingTest {

    @Test
    void closeEndsAConnectStillUnderWayAndEveryThreadOfTheProxy() throws Exception {
        List<Socket> fillers = new ArrayList<>();
        try (ServerSocket target = new ServerSocket()) {
            // A backlog of 1 that nobody accepts: once full, the kernel drops further SYNs, so a connect hangs.
            target.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            for (int i = 0; i < 4; i++) {
                Socket s = new Socket();
                fillers.add(s);
                try {
                    s.connect(target.getLocalSocketAddress(), 300);
                } catch (IOException full) {
                    // the queue is full: as meant
                }
            }
            TcpProxy proxy = TcpProxy.start((InetSocketAddress) target.getLocalSocketAddress());
            try (Socket client = new Socket()) {
                client.connect(proxy.address(), 2_000);
                await("the proxy's connect to the target, under way").atMost(Duration.ofSeconds(10))
                        .until(ACloseDuringAConnectLeavesNothingTest::aConnectIsUnderWay);

                proxy.close();

                assertEquals(List.of(), proxyThreads(), "threads of the proxy alive after close() returned");
            }
        } finally {
            for (Socket s : fillers) {
                s.close();
            }
        }
    }

    private static boolean aConnectIsUnderWay() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("tcp-proxy-connect-"))
                .anyMatch(e -> Arrays.stream(e.getValue()).anyMatch(frame -> frame.getMethodName().equals("connect")
                        && frame.getClassName().endsWith("NioSocketImpl")));
    }

    private static List<String> proxyThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(name -> name.startsWith("tcp-proxy-")).sorted().toList();
    }
}
