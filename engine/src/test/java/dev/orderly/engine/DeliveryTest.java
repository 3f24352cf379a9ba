package dev.orderly.engine;

import static dev.orderly.engine.Fixtures.range;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.SegmentConsumer;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DeliveryTest {

    @ParameterizedTest(name = "segments [{0},{1}) stages {2} workers {3} ordered {4}")
    @CsvSource({
        "0, 1, 1, 1, true",
        "0, 50, 1, 4, true",
        "0, 40, 3, 5, true",
        "17, 60, 2, 3, true",
        "1000000, 1000030, 4, 8, true",
        "0, 50, 1, 4, false",
        "0, 40, 3, 5, false",
        "17, 60, 2, 3, false",
    })
    void everySegmentIsDeliveredOnceInOrderWithoutBreakingStageDependencies(
            long start, long end, int stages, int workers, boolean ordered) throws Exception {
        RequestPlan plan = new RequestPlan(start, end, stages, workers);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        RecordingClient client = new RecordingClient();
        EngineConfig config = ordered ? Fixtures.fast() : Fixtures.fastUnordered();

        RequestResult result = Orderly.engine(config).run(Request.of(plan, tier2, store, client));

        assertEquals(range(start, end), client.segments());
        assertEquals(List.of(), client.wrongOutputs());
        assertEquals(0, client.overlaps(), "client calls overlapping");
        assertEquals(List.of(), tier2.dependencyViolations());
        assertEquals(0, tier2.openCalls(), "open calls");
        assertEquals(end - start, result.segmentsDelivered());
        assertEquals(tier2.log().dials().size(), result.dials());
        assertEquals(result.dials(), result.admissions());
        assertEquals(0, result.refusals());
        assertTrue(result.elapsed().compareTo(result.timeToFirstSegment()) >= 0, result.toString());
    }

    /** {@code Orderly.engine()} reads the environment; none of its variables is set where the tests run. */
    @Test
    void theEngineConfiguredFromTheEnvironmentRunsARequest() throws Exception {
        RequestPlan plan = new RequestPlan(0, 5, 2, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        RecordingClient client = new RecordingClient();

        RequestResult result = Orderly.engine()
                .run(Request.of(plan, new ScriptedTier2(plan, store::write, job -> Script.succeed()), store, client));

        assertEquals(range(0, 5), client.segments());
        assertEquals(5, result.segmentsDelivered());
    }

    /**
     * {@code elapsed} is the time to the last segment's delivery: it counts a slow client's last {@code accept} (the
     * delivery ends when it returns) and not what the walker does after it (here a listener that takes 3 s on the last
     * segment), nor the time to the request's end. Bounds 30x apart: at least the client's 100 ms, under the
     * listener's 3 s.
     */
    @Test
    void elapsedRunsToTheLastSegmentsDeliveryNotToWhatFollowsIt() throws Exception {
        RequestPlan plan = new RequestPlan(0, 4, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        long clientMillis = 100;
        long listenerMillis = 3_000;
        SegmentConsumer client = (segment, output) -> {
            if (segment == plan.endSegment() - 1) {
                letTimePass(clientMillis);
            }
        };
        RequestListener listener = new RequestListener() {
            @Override
            public void onSegmentDelivered(long segment) {
                if (segment == plan.endSegment() - 1) {
                    letTimePass(listenerMillis);
                }
            }
        };
        long start = System.nanoTime();

        RequestResult result = Orderly.engine(Fixtures.fast()).run(new Request("elapsed", plan,
                new ScriptedTier2(plan, store::write, job -> Script.succeed()), store, client, listener));

        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(clientMillis + listenerMillis),
                "the request lasted the client's and the listener's time");
        assertEquals(4, result.segmentsDelivered());
        assertTrue(result.elapsed().compareTo(Duration.ofMillis(clientMillis)) >= 0, result.toString());
        assertTrue(result.elapsed().compareTo(Duration.ofMillis(listenerMillis)) < 0, result.toString());
    }

    private static void letTimePass(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        await().pollInterval(Duration.ofMillis(5)).atMost(Duration.ofMillis(millis * 5))
                .until(() -> System.nanoTime() - end >= 0);
    }
}
