package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code Engine.run} says that when it throws {@code InterruptedException} the request's figures so far
 * ride along as a suppressed {@code RequestFailedException}, and {@code partialResult()} is "always present on the
 * exceptions the engine throws". A caller whose interrupt was already pending at the call got an
 * {@code InterruptedException} with nothing suppressed, so {@code RequestFailedException.partialResultOf} was empty
 * and a caller that restarts from {@code segmentsDelivered} (resume) had nothing to restart from. It now carries the
 * figures of a request that did nothing: no segment delivered, no dial.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class APendingInterruptCarriesTheFiguresSoFarTest {

    @Test
    void anInterruptPendingAtTheCallCarriesFiguresOfNothingDone() throws Exception {
        RequestPlan plan = new RequestPlan(10, 20, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            Thread.currentThread().interrupt();
            try {
                Orderly.engine(Fixtures.fast()).run(Request.of(plan, tier2, store, (s, b) -> { }).withId("r-3"));
                thrown.complete(null);
            } catch (Throwable t) {
                thrown.complete(t);
            }
        });

        InterruptedException e = assertInstanceOf(InterruptedException.class, thrown.get(10, TimeUnit.SECONDS));
        assertEquals(0, tier2.log().dials().size());
        Optional<RequestResult> partial = RequestFailedException.partialResultOf(e);
        assertTrue(partial.isPresent(), "no figures ride along with " + e);
        assertEquals(0, partial.get().segmentsDelivered());
        assertEquals(0, partial.get().dials());
        assertTrue(partial.get().firstSegment().isEmpty());
    }
}
