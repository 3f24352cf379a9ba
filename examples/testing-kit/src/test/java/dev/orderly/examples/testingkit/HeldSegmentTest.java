package dev.orderly.examples.testingkit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Hold;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import dev.orderly.testing.Tier2Event;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How an embedder tests code that runs requests: the engine against the kit's {@link ScriptedTier2}, a fleet whose
 * every unit does what its {@link Script} says, and Awaitility for the moment the two threads meet.
 */
@Timeout(30)
class HeldSegmentTest {

    @Test
    void aSlowFirstSegmentHoldsBackDeliveryButNotTheWorkBehindIt() throws Exception {
        RequestPlan plan = new RequestPlan(0, 6, 1, 3);              // 6 segments, 1 stage, 3 workers
        Hold slow = new Hold();
        ScriptedTier2 tier2 = new ScriptedTier2(plan).script(new JobKey(0, 0), Script.hold(slow));
        List<Long> seen = new CopyOnWriteArrayList<>();
        Engine engine = Orderly.engine(EngineConfig.defaults());

        ExecutorService caller = Executors.newVirtualThreadPerTaskExecutor();
        try {
            CompletableFuture<RequestResult> run = CompletableFuture.supplyAsync(() -> {
                try {
                    return engine.run(Request.of(plan, tier2, tier2.outputs(), (segment, out) -> seen.add(segment)));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, caller);

            // The race: segment 0 is held on the fleet while the other workers run segments 1 and 2.
            await().atMost(Duration.ofSeconds(10)).until(() -> slow.waiting() == 1
                    && tier2.log().count(Tier2Event.Type.SUCCEEDED) >= 2);
            assertEquals(List.of(), seen, "nothing reaches the client before segment 0");

            slow.release();
            RequestResult result = run.get(10, TimeUnit.SECONDS);

            assertEquals(LongStream.range(0, 6).boxed().toList(), seen, "in order, once each");
            assertEquals(6, result.segmentsDelivered());
            assertTrue(tier2.log().count(Tier2Event.Type.SUCCEEDED) == 6, tier2.log().toString());
            assertEquals(0, tier2.openCalls(), "the engine closed every call");
        } finally {
            slow.release();
            caller.shutdownNow();
            assertTrue(caller.awaitTermination(10, TimeUnit.SECONDS), "the request's caller thread ended");
        }
    }
}
