package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ForwardingServerBuilder;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code start()} binds the health listener first and records it only after the main listener started; a
 * {@code close()} (a SIGTERM hook, say) that ran in between read no health listener and shut down only the main one.
 * The health listener then kept its port, and answered probes, for the life of the JVM, though the server was closed.
 */
@Timeout(60)
class ATier2ServerClosedAsItStartsLeavesNoHealthListenerTest {

    @Test
    void aCloseBetweenTheTwoListenersStartsShutsTheHealthListenerToo() throws Exception {
        int healthPort;
        try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            healthPort = probe.getLocalPort();
        }
        CountDownLatch mainStarted = new CountDownLatch(1);
        CountDownLatch closeReturned = new CountDownLatch(1);
        Tier2Server server = Tier2Server.builder()
                .serverBuilder(new Paused(InProcessServerBuilder.forName("closed-as-it-starts-" + System.nanoTime()),
                        mainStarted, closeReturned))
                .worker((job, work) -> { }).healthPort(healthPort).drainGrace(Duration.ZERO).build();
        ExecutorService starter = Executors.newSingleThreadExecutor();
        try {
            Future<?> starting = starter.submit(() -> {
                server.start();
                return null;
            });
            assertTrue(mainStarted.await(10, SECONDS), "the main listener did not start");
            server.close(); // as start() is between its main listener's start and its return
            closeReturned.countDown();
            try {
                starting.get(10, SECONDS); // it may say it was closed; it must not leave a listener
            } catch (ExecutionException closedUnderIt) {
                assertInstanceOf(IllegalStateException.class, closedUnderIt.getCause());
            }
            assertTrue(server.isTerminated());
            await("the health port " + healthPort + " free once the server is closed").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50)).until(() -> free(healthPort));
        } finally {
            closeReturned.countDown();
            starter.shutdownNow();
            starter.awaitTermination(10, SECONDS);
            server.close();
        }
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /** A transport whose server's start() returns only once the test's close() has returned. */
    private static final class Paused extends ForwardingServerBuilder<Paused> {
        private final ServerBuilder<?> delegate;
        private final CountDownLatch started;
        private final CountDownLatch release;

        Paused(ServerBuilder<?> delegate, CountDownLatch started, CountDownLatch release) {
            this.delegate = delegate;
            this.started = started;
            this.release = release;
        }

        @Override
        protected ServerBuilder<?> delegate() {
            return delegate;
        }

        @Override
        public Server build() {
            Server real = delegate.build();
            return new Server() {
                @Override
                public Server start() throws IOException {
                    real.start();
                    started.countDown();
                    try {
                        release.await(10, SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return this;
                }

                @Override
                public int getPort() {
                    return real.getPort();
                }

                @Override
                public Server shutdown() {
                    real.shutdown();
                    return this;
                }

                @Override
                public Server shutdownNow() {
                    real.shutdownNow();
                    return this;
                }

                @Override
                public boolean isShutdown() {
                    return real.isShutdown();
                }

                @Override
                public boolean isTerminated() {
                    return real.isTerminated();
                }

                @Override
                public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
                    return real.awaitTermination(timeout, unit);
                }

                @Override
                public void awaitTermination() throws InterruptedException {
                    real.awaitTermination();
                }
            };
        }
    }
}
