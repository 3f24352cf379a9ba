package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
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
 * The stall warning counts "no" since the request's last admission, not since its start: a request whose first dial
 * was in flight for longer than {@code stallWarning} and got in, then hears a few refusals, has not stalled.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ARefusalAfterAnAdmissionIsNoStallTest {

    @AfterEach
    void stopCapture() {
        LogCapture.stop();
    }

    @Test
    void refusalsJustAfterALateAdmissionLogNoWarning() throws Exception {
        // One worker: segment 1's job dials only once segment 0's (held in its dial) got in and ended.
        RequestPlan plan = new RequestPlan(0, 2, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        Hold firstDial = new Hold();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write,
                job -> job.key().segment() == 0 ? Script.holdDial(firstDial)
                        : job.attempt() <= 3 ? Script.refuse(1) : Script.succeed());
        EngineConfig config = Fixtures.fast().toBuilder().stallWarning(Duration.ofSeconds(1)).build();
        LogCapture.start();

        CompletableFuture<Object> run = new CompletableFuture<>();
        Thread.ofVirtual().name("stall-test-run").start(() -> {
            try {
                run.complete(Orderly.engine(config).run(Request.of(plan, tier2, store, new RecordingClient())));
            } catch (Throwable t) {
                run.completeExceptionally(t);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> firstDial.waiting() == 1);
        // Longer than stallWarning, with the one dial in flight: then it gets in, and segment 1 hears 3 refusals.
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> !run.isDone());
        firstDial.release();
        run.get(10, TimeUnit.SECONDS);

        assertEquals(List.of(), LogCapture.stop().stream()
                .filter(event -> event.level() == Level.WARN).map(LogCapture.Event::message).toList());
    }
}
