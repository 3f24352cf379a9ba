package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Hold;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found in review: a {@code RequestListener} written where checked exceptions are not checked (Kotlin, Groovy,
 * Lombok's {@code @SneakyThrows}) whose event blocks interruptibly (a hand-off to a progress display:
 * {@code BlockingQueue.put}) answers the request's cancellation by throwing {@code InterruptedException}, which
 * clears the thread's interrupt. The engine's listener guard logged it and went on, the interrupt gone: the job, past
 * its last look at the request's state, dialed, and its dial was never interrupted, so {@code run} waited for the
 * tier2 client to give up on its own (a gRPC client's admission timeout; for ever here). The store and the client
 * already keep such an interrupt; the listener guard now sets it again too.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AListenersInterruptedExceptionKeepsTheCancellationTest {

    @Test
    void aCancellationMetInsideAListenerStillInterruptsTheJobsDial() throws Exception {
        RequestPlan plan = new RequestPlan(0, 2, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        Hold dial = new Hold();
        // The dial of (0, 0) blocks until it is interrupted (or the test lets it go, at the end).
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed())
                .script(new JobKey(0, 0), Script.holdDial(dial));
        CountDownLatch inOnDial = new CountDownLatch(1);
        RequestListener listener = new RequestListener() {
            @Override
            public void onDial(Job job) {
                if (job.key().equals(new JobKey(0, 0))) {
                    inOnDial.countDown();
                    try {
                        new CountDownLatch(1).await(); // a blocking hand-off, ended by the cancellation's interrupt
                    } catch (InterruptedException e) {
                        throw AListenersInterruptedExceptionKeepsTheCancellationTest.<RuntimeException>sneaky(e);
                    }
                }
            }
        };
        Background run = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, output) -> { }).withId("r-15").withListener(listener));
        try {
            assertTrue(inOnDial.await(10, TimeUnit.SECONDS), "the job never dialed");
            run.interrupt();

            assertInstanceOf(InterruptedException.class, run.failure(10));
        } finally {
            // Before the fix the dial blocks for good: let it go, so that no thread of the request outlives the test.
            dial.release();
            try {
                run.get(10);
            } catch (Throwable ignored) {
                // what it threw was asserted above
            }
        }
    }

    /** Throws {@code t} unchecked, as code compiled where checked exceptions are not checked does. */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
