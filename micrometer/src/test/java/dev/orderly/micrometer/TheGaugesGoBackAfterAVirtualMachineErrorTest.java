package dev.orderly.micrometer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.micrometer.OrderlyMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a request stopped by a {@code VirtualMachineError} (a tier2 client that recursed too deep) heard no end
 * event, so its queued and dialing jobs stayed in the gauges for good. Its listener now hears the failure.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TheGaugesGoBackAfterAVirtualMachineErrorTest {

    @Test
    void aRequestEndedByAStackOverflowInTheClientGivesItsGaugesBack() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OrderlyMetrics metrics = new OrderlyMetrics(registry);
        InMemoryOutputStore store = new InMemoryOutputStore();
        RequestPlan plan = new RequestPlan(0, 2, 1, 2);
        Tier2Client tier2 = job -> {
            if (job.key().segment() == 0) {
                new CountDownLatch(1).await(); // a dial in flight, until the request's end interrupts it
            }
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> registry.get("orderly.launch.dialing").gauge().value() == 2.0);
            throw new StackOverflowError("a client that recursed too deep");
        };
        Throwable thrown = assertThrows(Throwable.class, () -> Orderly.engine(EngineConfig.builder().build())
                .run(Request.of(plan, tier2, store, (segment, output) -> { }).withListener(metrics.listener())));
        assertInstanceOf(StackOverflowError.class, thrown);
        assertEquals(0.0, registry.get("orderly.launch.dialing").gauge().value(), "dialing after the request ended");
        assertEquals(0.0, registry.get("orderly.launch.queued").gauge().value(), "queued after the request ended");
    }
}
