package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: once every segment has been delivered, {@code run} still waits for the request's leftover threads (a
 * covered lower stage on its tier2) to end. A caller interrupted in that wait got {@code InterruptedException}
 * "cancelled by interrupt" and the listener heard {@code onRequestCancelled}, though the client had every segment: the
 * request had ended well before the interrupt came, as a failed one had failed (which now reaches the caller). The
 * caller gets the result, with its interrupt set again, as when the interrupt comes as the request's owner ends.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ADeliveredRequestIsNotCancelledByAnInterruptDuringTeardownTest {

    /**
     * Two segments, two stages, three workers: (0, 1) runs with (1, 0) beside it (stage 1 of segment 1 needs stage 0
     * of segment 0 done); then (1, 1) covers (1, 0), which lingers on its tier2 after the last segment is delivered.
     */
    private static final RequestPlan PLAN = new RequestPlan(0, 2, 2, 3);

    @Test
    void theResultReachesTheCallerInterruptedAfterEverySegmentWasDelivered() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch stage0OnItsTier2 = new CountDownLatch(1);
        CountDownLatch stage0Interrupted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch lastDelivered = new CountDownLatch(1);
        List<Long> delivered = new CopyOnWriteArrayList<>();
        List<String> ends = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onSegmentDelivered(long segment) {
                if (segment == 1) {
                    // the walker's last step before it returns: every segment is delivered
                    lastDelivered.countDown();
                }
            }

            @Override
            public void onRequestDone(RequestResult result) {
                ends.add("done");
            }

            @Override
            public void onRequestFailed(RequestResult partial, RequestFailedException e) {
                ends.add("failed");
            }

            @Override
            public void onRequestCancelled(RequestResult partial) {
                ends.add("cancelled");
            }
        };
        Request request = Request.of(PLAN, job -> new Tier2Call() {
            @Override
            public void await() throws Tier2Exception, InterruptedException {
                if (job.key().stage() == 1) {
                    if (job.key().segment() == 0 && !stage0OnItsTier2.await(10, TimeUnit.SECONDS)) {
                        throw new AssertionError("stage 0 of segment 1 never got on its tier2");
                    }
                    store.write(job.key().segment(), new byte[] {1});
                    return;
                }
                stage0OnItsTier2.countDown();
                // A tier2 call that answers no interrupt until it is released (a blocking socket read, say).
                boolean interrupted = false;
                while (true) {
                    try {
                        release.await();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                        stage0Interrupted.countDown();
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                throw Tier2Exception.retryable("call cancelled", null);
            }
        }, store, (segment, output) -> delivered.add(segment)).withId("r-delivered").withListener(listener);

        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<RequestResult> returned = new AtomicReference<>();
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        Thread caller = Thread.ofPlatform().name("caller").start(() -> {
            try {
                returned.set(Orderly.engine(Fixtures.fast()).run(request));
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                interruptedAfter.set(Thread.interrupted());
            }
        });
        try {
            // Every segment is delivered, and the covered (1, 0) was interrupted: run waits for its thread to end.
            assertTrue(lastDelivered.await(10, TimeUnit.SECONDS), "segment 1 was never delivered");
            assertTrue(stage0Interrupted.await(10, TimeUnit.SECONDS), "stage 0's job was never interrupted");
            assertEquals(List.of(0L, 1L), delivered, "segments the client got");
            caller.interrupt();
        } finally {
            release.countDown();
            caller.join(TimeUnit.SECONDS.toMillis(20));
        }
        assertFalse(caller.isAlive(), "run never returned");
        assertNull(thrown.get(), "run threw, though the client had every segment: " + thrown.get());
        assertEquals(2, returned.get().segmentsDelivered());
        assertTrue(interruptedAfter.get(), "the caller's interrupt flag after run");
        assertEquals(List.of("done"), ends, "how the listener heard the request end");
    }
}
