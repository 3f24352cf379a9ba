package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A request that stops (its caller interrupts it, or its deadline passes) while its job is on a tier2 whose call
 * answers {@code close()} but not an interrupt (a blocking socket read, say) must close that call: the guide says its
 * place under the engine-wide job cap goes to the waiting request "at once, since the cancellation closes their
 * calls", and only a call that ignores both interrupt and close may hold {@code run} back. The engine only
 * interrupted the job's thread, so the call ran on to its own end: the place stayed taken and {@code run} did not
 * return.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AStoppedRequestClosesItsCallsAndFreesItsPlaceAtOnceTest {

    /** A call whose await ignores interrupts and returns only once closed (or after 30 s, so no test hangs). */
    private static final class CloseOnlyCall implements Tier2Call {
        final CountDownLatch closed = new CountDownLatch(1);
        final CountDownLatch awaiting = new CountDownLatch(1);

        @Override
        public void await() {
            awaiting.countDown();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (closed.getCount() > 0 && System.nanoTime() < end) {
                try {
                    closed.await(end - System.nanoTime(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException ignored) {
                    // a blocking socket read does not answer an interrupt
                }
            }
        }

        @Override
        public void close() {
            closed.countDown();
        }
    }

    @Test
    void aCancelledRequestClosesItsCallAndTheWaitingRequestGetsThePlaceAtOnce() throws Throwable {
        placeGoesOnAtOnce(Duration.ZERO);
    }

    @Test
    void aRequestPastItsDeadlineClosesItsCallAndTheWaitingRequestGetsThePlaceAtOnce() throws Throwable {
        placeGoesOnAtOnce(Duration.ofMillis(500));
    }

    /** {@code deadline} zero: the first request is cancelled by its caller's interrupt; else it has that deadline. */
    private static void placeGoesOnAtOnce(Duration deadline) throws Throwable {
        EngineConfig config = Fixtures.fast().toBuilder().maxConcurrentJobs(1).build();
        Engine engine = Orderly.engine(config);
        CloseOnlyCall held = new CloseOnlyCall();
        Tier2Client holding = job -> held;
        InMemoryOutputStore written = new InMemoryOutputStore();
        AtomicInteger waitingDials = new AtomicInteger();
        Tier2Client quick = job -> {
            waitingDials.incrementAndGet();
            written.write(job.key().segment(), ScriptedTier2.outputOf(job.key().segment()));
            return () -> { };
        };
        Request first = Request.of(new RequestPlan(0, 1, 1, 1), holding, new InMemoryOutputStore(),
                new RecordingClient());
        if (!deadline.isZero()) {
            first = first.withDeadline(deadline);
        }
        Background a = new Background(engine, first);
        Background b = null;
        try {
            assertTrue(held.awaiting.await(10, TimeUnit.SECONDS), "the first request's call was never awaited");
            b = new Background(engine, Request.of(new RequestPlan(0, 2, 1, 1), quick, written,
                    new RecordingClient()));
            if (deadline.isZero()) {
                // b waits for the one place, which a holds
                assertFalse(b.isDone());
                assertEquals(0, waitingDials.get());
                a.interrupt();
            }
            assertTrue(held.closed.await(10, TimeUnit.SECONDS), "the stopped request's call was not closed within"
                    + " 10 s, so its place under the cap stayed taken; the waiting request dialed "
                    + waitingDials.get() + " time(s)");
            Throwable stopped = a.failure(10);
            if (deadline.isZero()) {
                assertInstanceOf(InterruptedException.class, stopped);
            } else {
                assertInstanceOf(RequestFailedException.class, stopped);
            }
            assertEquals(2, b.get(10).segmentsDelivered());
        } finally {
            held.close();
            if (b != null) {
                b.interrupt();
            }
            a.interrupt();
        }
    }
}
