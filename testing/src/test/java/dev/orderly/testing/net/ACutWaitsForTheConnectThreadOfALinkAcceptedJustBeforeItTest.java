package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code TcpProxy.cut()} says it resets every open connection and waits for their threads to end. The
 * acceptor counted a new connection (so a cut took and reset it) before it started the connection's connect thread:
 * a cut() in between found no thread to wait for and returned, and the connect thread started after it. The acceptor
 * is held in that window without a hook in the proxy: creating a thread copies the creator's inheritable thread locals
 * by calling {@link InheritableThreadLocal#childValue} on the creator, so an inheritable thread local set when the
 * proxy starts (and so inherited by its acceptor) stops the acceptor exactly as it creates the connect thread.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ACutWaitsForTheConnectThreadOfALinkAcceptedJustBeforeItTest {

    @Test
    void aCutWhileTheAcceptorIsAboutToStartALinkReturnsOnlyOnceThatLinksConnectThreadHasEnded() throws Exception {
        CountDownLatch acceptorHeld = new CountDownLatch(1);
        CountDownLatch releaseAcceptor = new CountDownLatch(1);
        AtomicBoolean released = new AtomicBoolean();
        InheritableThreadLocal<String> gate = new InheritableThreadLocal<>() {
            @Override
            protected String childValue(String parentValue) {
                // Called on the thread that creates a thread: hold the acceptor as it creates a connect thread.
                if (Thread.currentThread().getName().startsWith("tcp-proxy-accept-") && acceptorHeld.getCount() > 0) {
                    acceptorHeld.countDown();
                    try {
                        releaseAcceptor.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return parentValue;
            }
        };
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket target = new ServerSocket(0, 10, loopback)) {
            gate.set("inherited by the acceptor");
            TcpProxy proxy;
            try {
                proxy = TcpProxy.start(new InetSocketAddress(loopback, target.getLocalPort()));
            } finally {
                gate.remove();
            }
            Thread cutter = null;
            try (Socket client = new Socket(loopback, proxy.port())) {
                assertTrue(acceptorHeld.await(10, TimeUnit.SECONDS), "the acceptor did not start a link in 10 s");
                String connectThread = "tcp-proxy-connect-" + client.getLocalPort();
                AtomicReference<Boolean> returnedWhileHeld = new AtomicReference<>();
                AtomicReference<List<String>> aliveAfter = new AtomicReference<>();
                cutter = Thread.ofPlatform().name("cutter").start(() -> {
                    proxy.cut();
                    returnedWhileHeld.set(!released.get());
                    aliveAfter.set(Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                            .map(Thread::getName).filter(connectThread::equals).toList());
                });
                Thread c = cutter;
                // Either the cut returns, or it waits (for the proxy's lock or for the link's threads).
                await().atMost(Duration.ofSeconds(10)).until(() -> !c.isAlive()
                        || c.getState() == Thread.State.WAITING || c.getState() == Thread.State.TIMED_WAITING);
                released.set(true);
                releaseAcceptor.countDown();
                cutter.join(Duration.ofSeconds(20));
                assertFalse(cutter.isAlive(), "cut() did not return in 20 s");
                assertEquals(Boolean.FALSE, returnedWhileHeld.get(),
                        "cut() returned while the link it reset had not yet created its connect thread "
                                + connectThread + ", which then started after cut() returned");
                assertEquals(List.of(), aliveAfter.get(), "a thread of the cut link alive after cut() returned");
            } finally {
                releaseAcceptor.countDown();
                proxy.close();
                if (cutter != null) {
                    cutter.join(Duration.ofSeconds(20));
                }
            }
        }
    }
}
