package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Hold;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: whatever a {@code RequestListener} throws is logged and "never changes the request's outcome"
 * ({@code RequestListener}'s javadoc; the engine rules: "the request goes on as if nothing happened"). The listener
 * guard sets the thread's interrupt again when a listener throws {@code InterruptedException}, so that a cancellation
 * the listener answered goes on; but it did so also when nothing had cancelled anything, and the interrupt it left
 * then failed the request at the walker's next wait, blaming an innocent segment: a listener whose
 * {@code onSegmentDelivered(0)} threw an {@code InterruptedException} of its own (Kotlin, Groovy,
 * {@code @SneakyThrows}) failed the request with "segment 1 stage 0 output could not be awaited: the output walker's
 * thread was interrupted, and not by a cancellation of the request". The guard now sets the interrupt again only when
 * the request is being stopped, whose interrupt the listener may have answered.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AListenersOwnInterruptedExceptionLeavesTheRequestAloneTest {

    @Test
    void aListenersInterruptedExceptionWithNoCancellationIsOnlyLogged() throws Throwable {
        RequestPlan plan = new RequestPlan(0, 3, 1, 1);
        Hold rerun = new Hold();
        // Segment 1's output is lost once; its re-run is held, so the walker waits for it after segment 0's event.
        ScriptedTier2 tier2 = new ScriptedTier2(plan)
                .script(new JobKey(1, 0), Script.loseOutput().thenHold(rerun));
        AtomicBoolean thrown = new AtomicBoolean();
        RequestListener listener = new RequestListener() {
            @Override
            public void onSegmentDelivered(long segment) {
                if (segment == 0 && thrown.compareAndSet(false, true)) {
                    // Its own, not an answer to an interrupt: nothing has cancelled anything.
                    throw AListenersOwnInterruptedExceptionLeavesTheRequestAloneTest.<RuntimeException>sneaky(
                            new InterruptedException("the listener's own"));
                }
            }
        };
        RecordingClient client = new RecordingClient();
        Background run = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, tier2.outputs(), client).withId("r-li").withListener(listener));
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> rerun.waiting() == 1 || run.isDone());
            rerun.release();
            RequestResult result = run.get(10);
            assertEquals(List.of(0L, 1L, 2L), client.segments());
            assertEquals(3, result.segmentsDelivered());
        } finally {
            rerun.release();
        }
        assertEquals(true, thrown.get());
        assertEquals(0, tier2.openCalls());
    }

    /** Throws {@code t} unchecked, as code compiled where checked exceptions are not checked does. */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
