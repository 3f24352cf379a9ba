package dev.orderly.engine;

import static dev.orderly.engine.Fixtures.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
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
}
