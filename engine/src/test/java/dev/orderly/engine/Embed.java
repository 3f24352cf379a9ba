package dev.orderly.engine;

import dev.orderly.api.*;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.nio.charset.StandardCharsets;

public class Embed {
    public static void main(String[] args) throws Exception {
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        RequestPlan plan = new RequestPlan(0, 100, 2, 8); // segments [0, 100), 2 stages, 8 workers
        // A stand-in fleet that runs every job at once; a last-stage job writes its segment's output.
        Tier2Client tier2 = job -> () -> {
            if (job.key().stage() == plan.lastStage()) {
                outputs.write(job.key().segment(),
                        ("output of segment " + job.key().segment()).getBytes(StandardCharsets.UTF_8));
            }
        };
        Engine engine = Orderly.engine(EngineConfig.defaults());   // or Orderly.engine(): from the environment
        RequestResult result = engine.run(Request.of(plan, tier2, outputs,
                (segment, output) -> System.out.println(new String(output, StandardCharsets.UTF_8))));
        System.out.println(result);
    }
}
