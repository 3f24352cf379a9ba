package dev.orderly.engine;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One regression test per defect of issue 9 that this engine part fixes; each failed before its fix. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class Issue9RegressionTest {

    private static EngineConfig config(boolean ordered) {
        return ordered ? Fixtures.fast() : Fixtures.fastUnordered();
    }

    /** Defect 5: a caller whose interrupt is pending when it calls run gets InterruptedException, nothing dialed. */
    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aPendingInterruptStillDials(boolean ordered) throws Exception {
        RequestPlan plan = new RequestPlan(0, 50, 2, 8);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store, job -> ScriptedTier2.AWAIT_BLOCKS);
        ThreadCensus census = new ThreadCensus();
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            Thread.currentThread().interrupt();
            try {
                census.engine(config(ordered)).run(Request.of(plan, tier2, store, new RecordingClient()));
                thrown.complete(null);
            } catch (Throwable t) {
                thrown.complete(t);
            }
        });

        assertInstanceOf(InterruptedException.class, thrown.get(10, TimeUnit.SECONDS));
        assertEquals(0, tier2.dials().size(), "dials: " + tier2.dials());
        assertEquals(0, census.created(), "threads created");
    }
}
