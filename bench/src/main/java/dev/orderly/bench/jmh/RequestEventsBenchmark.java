package dev.orderly.bench.jmh;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A whole request on a fleet with room (every dial admitted at once, every run ends at once): 64 segments, one stage,
 * 8 workers, so 64 dials, 64 runs and 64 deliveries, each of which emits the engine's listener events and, when a
 * flight recording is running, its JFR events. Run it once without and once with {@code -XX:StartFlightRecording}
 * to see what recording the engine's events costs per request.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RequestEventsBenchmark {

    private static final RequestPlan PLAN = new RequestPlan(0, 64, 1, 8);
    private static final byte[] OUTPUT = new byte[16];

    private Engine engine;

    @Setup
    public void setUp() {
        engine = Orderly.engine(EngineConfig.defaults());
    }

    @Benchmark
    public RequestResult requestOnAFleetWithRoom() throws Exception {
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        Tier2Client tier2 = job -> () -> outputs.write(job.key().segment(), OUTPUT);
        RequestResult result = engine.run(Request.of(PLAN, tier2, outputs, (segment, output) -> { }));
        if (result.segmentsDelivered() != 64) {
            throw new IllegalStateException("delivered " + result.segmentsDelivered() + " of 64");
        }
        return result;
    }
}
