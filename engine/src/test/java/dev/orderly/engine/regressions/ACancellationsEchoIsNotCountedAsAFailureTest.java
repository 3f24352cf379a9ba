package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.JobEndLedger;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@code Tier2Client} may answer the interrupt of a cancellation with a {@code Tier2Exception} (the engine rules
 * say such a client is stopped all the same). A job on a tier2 when its request stopped, whose call answered the
 * stop with {@code Tier2Exception.retryable}, was counted as a job that got in and failed: {@code failures} of the
 * request's figures went up by one, the listener heard {@code onFailed} and then {@code onAbandoned}, and nothing had
 * failed on any tier2. Plan 0..2, one stage, 2 workers: segment 1 is held on its tier2 until interrupted; then the
 * request stops (segment 0 fails fatally, or the caller cancels it).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ACancellationsEchoIsNotCountedAsAFailureTest {

    /** Segment 1 holds its call until interrupted and answers the interrupt as retryable; segment 0 acts as told. */
    private static Tier2Client tier2(InMemoryOutputStore store, CountDownLatch segment1In, boolean segment0Fails) {
        return job -> {
            long segment = job.key().segment();
            if (segment == 0 && segment0Fails) {
                assertTrue(segment1In.await(10, TimeUnit.SECONDS), "segment 1 never got in");
                throw Tier2Exception.fatal("module panicked", null);
            }
            return new Tier2Call() {
                @Override
                public void await() throws Tier2Exception {
                    if (segment == 1) {
                        segment1In.countDown();
                        try {
                            new CountDownLatch(1).await();
                        } catch (InterruptedException e) {
                            throw Tier2Exception.retryable("call cancelled", e);
                        }
                    }
                    store.write(segment, new byte[] {(byte) segment});
                }
            };
        };
    }

    /** Hears the failures and the figures of the request's end. */
    private static final class Ears extends JobEndLedger {
        final List<String> failed = new CopyOnWriteArrayList<>();
        final AtomicReference<RequestResult> cancelled = new AtomicReference<>();

        @Override
        public void onFailed(Job job, Tier2Exception cause) {
            super.onFailed(job, cause);
            failed.add(job.key() + ": " + cause.getMessage());
        }

        @Override
        public void onRequestCancelled(RequestResult soFar) {
            super.onRequestCancelled(soFar);
            cancelled.set(soFar);
        }
    }

    @Test
    void aFailedRequestDoesNotCountTheEchoOfItsStopAsAFailure() {
        RequestPlan plan = new RequestPlan(0, 2, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        Ears ears = new Ears();
        Background run = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2(store, new CountDownLatch(1), true), store, new RecordingClient())
                        .withListener(ears));

        RequestFailedException failure = assertInstanceOf(RequestFailedException.class, run.failure(10));

        assertEquals(0, failure.partialResult().orElseThrow().failures(),
                "no job got in and failed with a retryable error; failures heard: " + ears.failed);
        assertEquals(List.of("segment 0 stage 0: module panicked"), ears.failed);
        assertEquals(List.of(), ears.violations());
    }

    @Test
    void aCancelledRequestDoesNotCountTheEchoOfItsCancellationAsAFailure() {
        RequestPlan plan = new RequestPlan(0, 2, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch segment1In = new CountDownLatch(1);
        Ears ears = new Ears();
        Background run = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2(store, segment1In, false), store, new RecordingClient()).withListener(ears));
        await().atMost(Duration.ofSeconds(10)).until(() -> segment1In.getCount() == 0);

        run.interrupt();

        assertInstanceOf(InterruptedException.class, run.failure(10));
        assertEquals(0, ears.cancelled.get().failures(),
                "no job got in and failed with a retryable error; failures heard: " + ears.failed);
        assertEquals(List.of(), ears.failed);
        assertEquals(List.of(), ears.violations());
    }
}
