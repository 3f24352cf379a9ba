package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When a request stops, the engine closes the calls of its jobs still on a tier2 on the thread that stops it. The
 * rules say a {@link VirtualMachineError} from {@code Tier2Call.close()} propagates from {@code run} as itself, once
 * everything is cancelled. It escaped the stop half-way instead: the stopping thread never finished its end, so
 * {@code run} waited for it for ever.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AVirtualMachineErrorFromACloseAtTheStopEndsTheRequestTest {

    /** A call on a tier2 until closed; its close fails with a StackOverflowError, once. */
    private static final class OverflowingClose implements Tier2Call {
        final CountDownLatch awaiting = new CountDownLatch(1);
        final CountDownLatch closed = new CountDownLatch(1);

        @Override
        public void await() throws InterruptedException {
            awaiting.countDown();
            closed.await();
        }

        @Override
        public void close() {
            if (closed.getCount() > 0) {
                closed.countDown();
                throw new StackOverflowError("from close");
            }
        }
    }

    @Test
    void runThrowsTheErrorOnceEveryThreadHasEnded() throws Throwable {
        Engine engine = Orderly.engine(Fixtures.fast());
        OverflowingClose held = new OverflowingClose();
        CountDownLatch failNow = new CountDownLatch(1);
        Tier2Client tier2 = job -> {
            if (job.key().segment() == 0) {
                return held;
            }
            return () -> {
                failNow.await();
                throw Tier2Exception.fatal("module panicked", null);
            };
        };
        Background run = new Background(engine, Request.of(new RequestPlan(0, 2, 1, 2), tier2,
                new InMemoryOutputStore(), new RecordingClient()).withId("r-close"));
        try {
            assertTrue(held.awaiting.await(10, TimeUnit.SECONDS), "segment 0's call was never awaited");
            failNow.countDown();
            Throwable thrown = run.failure(20);
            assertInstanceOf(StackOverflowError.class, thrown, "what run threw: " + thrown);
        } finally {
            held.closed.countDown();
            run.interrupt();
        }
    }
}
