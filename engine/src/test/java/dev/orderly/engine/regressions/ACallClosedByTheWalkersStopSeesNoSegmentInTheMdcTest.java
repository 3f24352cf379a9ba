package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.MDC;

/**
 * The output walker clears its MDC keys when it ends ({@code OutputWalker.run}'s finally), before its thread goes on
 * to stop the request: the first stop closes the calls still on their tier2, on the stopping thread, so a
 * {@code Tier2Call.close} (the embedder's code, and the engine's "closing its call" line) run there must not be told
 * it works for the segment the walker last delivered. (The engine tests' SLF4J binding keeps a real MDC, so
 * {@code LogContext.KEPT} is true.) Kills round 62's surviving negation of {@code run}'s {@code LogContext.KEPT} test
 * before the MDC is cleared.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ACallClosedByTheWalkersStopSeesNoSegmentInTheMdcTest {

    @Test
    void theCallOfALaterSegmentIsClosedWithoutTheWalkersSegmentInTheMdc() {
        RequestPlan plan = new RequestPlan(0, 2, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch segment1OnItsTier2 = new CountDownLatch(1);
        CountDownLatch segment1Closed = new CountDownLatch(1);
        AtomicReference<Thread> walker = new AtomicReference<>();
        AtomicReference<Thread> closer = new AtomicReference<>();
        AtomicReference<Optional<Map<String, String>>> mdcAtClose = new AtomicReference<>();
        Tier2Client tier2 = job -> new Tier2Call() {
            @Override
            public void await() throws Tier2Exception, InterruptedException {
                if (job.key().segment() == 0) {
                    store.write(0, new byte[] {0});
                    return;
                }
                segment1OnItsTier2.countDown();
                // A call that runs until the engine closes it.
                if (!segment1Closed.await(20, TimeUnit.SECONDS)) {
                    throw new AssertionError("segment 1's call was never closed");
                }
                throw Tier2Exception.retryable("call closed", null);
            }

            @Override
            public void close() {
                if (job.key().segment() == 1 && closer.compareAndSet(null, Thread.currentThread())) {
                    mdcAtClose.set(Optional.ofNullable(MDC.getCopyOfContextMap()));
                    segment1Closed.countDown();
                }
            }
        };

        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, output) -> {
                    walker.set(Thread.currentThread());
                    // Segment 1's job holds its call before the client fails, so the walker's stop closes it.
                    if (!segment1OnItsTier2.await(10, TimeUnit.SECONDS)) {
                        throw new AssertionError("segment 1 never got on its tier2");
                    }
                    throw new IllegalStateException("client broke on segment " + segment);
                }).withId("r-mdc-close")).failure(15);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(Optional.of(new JobKey(0, 0)), e.key(), e.getMessage());
        assertNotNull(closer.get(), "segment 1's call was never closed");
        assertSame(walker.get(), closer.get(), "the walker's failure stops the request on its own thread");
        Map<String, String> mdc = mdcAtClose.get().orElse(Map.of());
        assertTrue(!mdc.containsKey("segment"), "the MDC of the walker's thread as it closed segment 1's call: " + mdc);
    }
}
