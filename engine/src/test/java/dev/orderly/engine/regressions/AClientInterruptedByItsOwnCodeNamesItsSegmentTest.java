package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a {@code SegmentConsumer} whose own wait was interrupted by code of the embedder's (not by a
 * cancellation of the request: the caller of {@code run} was never interrupted) threw {@code InterruptedException},
 * and the request failed with "request r-9 failed: java.lang.InterruptedException: ..." and no unit, although
 * {@code Engine.run} promises that a client that throws fails the request naming the unit. It now fails naming the
 * segment's last stage, the {@code InterruptedException} as the cause, as any other throwable of the client does; a
 * cancelled request still throws {@code InterruptedException} from {@code run} (the walker's failure after the
 * cancellation is its echo, which neither scope reports).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AClientInterruptedByItsOwnCodeNamesItsSegmentTest {

    @Test
    void aClientThatThrowsInterruptedExceptionFailsTheRequestNamingTheSegment() {
        RequestPlan plan = new RequestPlan(0, 3, 2, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        List<RequestFailedException> heard = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
                heard.add(failure);
            }
        };
        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, output) -> {
                    if (segment == 1) {
                        // What a consumer's blocking hand-off (BlockingQueue.put, Future.get) throws when a thread of
                        // the embedder's interrupts it.
                        throw new InterruptedException("hand-off interrupted");
                    }
                }).withId("r-9").withListener(listener)).failure(10);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(Optional.of(new JobKey(1, 1)), e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith("segment 1 stage 1: the client failed on segment 1: java.lang.InterruptedException"),
                e.getMessage());
        assertInstanceOf(InterruptedException.class, e.getCause());
        assertEquals(1, e.partialResult().orElseThrow().segmentsDelivered());
        assertEquals(List.of(e), heard);
    }
}
