package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a {@code SegmentConsumer} that follows the usual idiom for an interrupt it can not handle (it sets its
 * thread's interrupt again and returns) left the interrupt on the output walker's thread, which then failed the
 * request at its next wait for an output with "request r-4 failed: java.lang.InterruptedException": no unit, no
 * words, nothing pointing at the client. The request was not cancelled (its caller was never interrupted). It now fails
 * naming the segment the walker waited for and saying that its thread was interrupted by something running on it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnInterruptLeftByTheClientIsNamedTest {

    @Test
    void anInterruptTheClientLeftOnItsThreadFailsTheRequestNamingTheSegment() {
        RequestPlan plan = new RequestPlan(0, 4, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        // Segment 2 never ends by itself, so the walker must wait for it, with the client's interrupt still set.
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write,
                job -> job.key().segment() == 2 ? Script.block() : Script.succeed());
        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, output) -> {
                    if (segment == 1) {
                        Thread.currentThread().interrupt();
                    }
                }).withId("r-4")).failure(10);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(Optional.of(new JobKey(2, 0)), e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith("segment 2 stage 0 "), e.getMessage());
        assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
        assertEquals(2, e.partialResult().orElseThrow().segmentsDelivered());
        assertEquals(0, tier2.openCalls());
    }
}
