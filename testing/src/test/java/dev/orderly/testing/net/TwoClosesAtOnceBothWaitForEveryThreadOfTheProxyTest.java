package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
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
        try (ProxiedLinks links = new ProxiedLinks(LINKS)) {
            CyclicBarrier together = new CyclicBarrier(2);
            Queue<String> leftAfter = new ConcurrentLinkedQueue<>();
            Queue<Throwable> failed = new ConcurrentLinkedQueue<>();
            Runnable closer = () -> {
                try {
                    together.await(10, TimeUnit.SECONDS);
                    links.proxy().close();
                    leftAfter.addAll(links.aliveThreads());
                } catch (Throwable t) {
                    failed.add(t);
                }
            };
            Thread a = Thread.ofPlatform().name("closer-a").start(closer);
            Thread b = Thread.ofPlatform().name("closer-b").start(closer);
            a.join(Duration.ofSeconds(30));
            b.join(Duration.ofSeconds(30));
            assertEquals(List.of(), List.copyOf(failed), "a close failed");
            assertEquals(0, leftAfter.size(), "threads of the proxy alive after a close() returned, such as "
                    + leftAfter.stream().limit(3).toList());
        }
    }

    @RepeatedTest(10)
    void aCloseAfterACutReturnsOnlyOnceEveryThreadHasEnded() throws Exception {
        try (ProxiedLinks links = new ProxiedLinks(LINKS)) {
            links.proxy().cut();
            links.proxy().close();
            List<String> left = links.aliveThreads();
            assertEquals(0, left.size(), "alive after cut and close: " + left.stream().limit(3).toList());
        }
    }
}
