package dev.orderly.archtests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.orderly.bench.cost.EngineCost;
import dev.orderly.examples.embedding.InProcessEmbedding;
import dev.orderly.examples.prometheus.PrometheusMetrics;
import dev.orderly.examples.tier2.UppercaseWorker;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.micrometer.OrderlyMetrics;
import dev.orderly.s3.S3OutputStore;
import dev.orderly.testing.ScriptedTier2;
import dev.orderly.tier2.Tier2Main;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * "Nothing outside engine touches dev.orderly.engine.internal" (docs/ARCHITECTURE.md) holds only for the classes
 * {@link ProductionClasses} imports, which its javadoc says are the main classes of every Orderly module on the
 * archtests class path. tier2 (which depends on the engine and compiles against its internals without complaint on the
 * class path), grpc, s3, micrometer and the testing kit are all on that class path (through sim), yet only the api,
 * engine and sim packages were imported: a tier2 class using an engine internal passed the rule. The benchmarks and the
 * examples (whose main classes users copy) were not on the class path at all; they are now, and imported.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class TheInternalsRuleSeesEveryOrderlyModuleOnTheClassPathTest {

    @Test
    void everyOrderlyModuleOnTheClassPathIsImported() {
        JavaClasses classes = ProductionClasses.get();
        List<Class<?>> oneOfEach = List.of(Tier2Main.class, GrpcTier2Client.class, S3OutputStore.class,
                OrderlyMetrics.class, ScriptedTier2.class, EngineCost.class, InProcessEmbedding.class,
                PrometheusMetrics.class, UppercaseWorker.class);
        List<String> missing = oneOfEach.stream().filter(c -> !classes.contain(c)).map(Class::getName).toList();
        assertEquals(List.of(), missing, "modules the architecture rules never look at");
    }
}
