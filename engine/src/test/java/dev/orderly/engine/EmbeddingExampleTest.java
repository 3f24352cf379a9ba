package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's embedding example, kept compiling and running here. */
class EmbeddingExampleTest {

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void theReadmeExampleDeliversEverySegmentInOrder() throws Exception {
        List<String> printed = new ArrayList<>();

        // --- README example, with System.out.println replaced by printed::add
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        RequestPlan plan = new RequestPlan(0, 100, 2, 8); // segments [0, 100), 2 stages, 8 workers
        // A stand-in fleet that runs every job at once; a last-stage job writes its segment's output.
        Tier2Client tier2 = job -> () -> {
            if (job.key().stage() == plan.lastStage()) {
                outputs.write(job.key().segment(),
                        ("output of segment " + job.key().segment()).getBytes(StandardCharsets.UTF_8));
            }
        };
        Engine engine = Orderly.engine(EngineConfig.defaults());
        RequestResult result = engine.run(Request.of(plan, tier2, outputs,
                (segment, output) -> printed.add(new String(output, StandardCharsets.UTF_8))));
        printed.add(result.segmentsDelivered() + " segments, " + result.dials() + " dials");
        // --- end of example

        assertEquals(101, printed.size());
        assertEquals("output of segment 0", printed.get(0));
        assertEquals("output of segment 99", printed.get(99));
        assertEquals(100, result.segmentsDelivered());
    }
}
