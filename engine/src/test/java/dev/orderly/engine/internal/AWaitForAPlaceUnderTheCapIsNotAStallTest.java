package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.testlog.LogCapture;
import dev.orderly.testing.Hold;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.event.Level;

/**
 * The stall warning is for a request that hears nothing but REFUSED/UNREACHABLE. A request that waited longer than
 * {@code stallWarning} for a place under the engine-wide job cap (behind another request, dialing nothing) and whose
 * first dial is then refused once has heard one "no", not {@code stallWarning} of them: it must not warn "is the tier2
 * address right, the fleet up?".
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AWaitForAPlaceUnderTheCapIsNotAStallTest {

    @AfterEach
    void stopCapture() {
        LogCapture.stop();
    }

    private static CompletableFuture<RequestResult> start(OrderlyEngine engine, Request request) {
        CompletableFuture<RequestResult> run = new CompletableFuture<>();
        Thread.ofVirtual().name("cap-stall-" + request.id()).start(() -> {
            try {
                run.complete(engine.run(request));
            } catch (Throwable t) {
                run.completeExceptionally(t);
            }
        });
        return run;
    }

    @Test
    void aRefusalRightAfterALongWaitForAPlaceLogsNoStallWarning() throws Exception {
        EngineConfig config = Fixtures.fast().toBuilder().stallWarning(Duration.ofSeconds(1)).maxConcurrentJobs(1)
                .build();
        OrderlyEngine engine = new OrderlyEngine(config);
        RequestPlan plan = new RequestPlan(0, 1, 1, 1);

        // Request a takes the engine's one place and holds it in its dial.
        InMemoryOutputStore storeA = new InMemoryOutputStore();
        Hold holdA = new Hold();
        ScriptedTier2 tier2A = new ScriptedTier2(plan, storeA::write, job -> Script.holdDial(holdA));
        // Request b's first dial is refused, its second gets in.
        InMemoryOutputStore storeB = new InMemoryOutputStore();
        ScriptedTier2 tier2B = new ScriptedTier2(plan, storeB::write,
                job -> job.attempt() == 1 ? Script.refuse(1) : Script.succeed());
        LogCapture.start();
        CompletableFuture<RequestResult> runA = null;
        CompletableFuture<RequestResult> runB = null;
        try {
            runA = start(engine, Request.of(plan, tier2A, storeA, new RecordingClient()).withId("a"));
            await().atMost(Duration.ofSeconds(10)).until(() -> holdA.waiting() == 1);
            runB = start(engine, Request.of(plan, tier2B, storeB, new RecordingClient()).withId("b"));
            await().atMost(Duration.ofSeconds(10)).until(() -> engine.jobCap().waiting() == 1);
            // b waits for a place for longer than stallWarning, dialing nothing.
            CompletableFuture<RequestResult> b = runB;
            await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> !b.isDone());
            holdA.release();
            runA.get(10, TimeUnit.SECONDS);
            assertEquals(1, runB.get(10, TimeUnit.SECONDS).segmentsDelivered());
        } finally {
            holdA.release();
        }

        assertEquals(List.of(), LogCapture.stop().stream().filter(event -> event.level() == Level.WARN)
                .map(LogCapture.Event::message).toList());
    }
}
