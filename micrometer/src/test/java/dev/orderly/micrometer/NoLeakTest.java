package dev.orderly.micrometer;

import static io.micrometer.core.tck.MeterRegistryAssert.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Ten thousand requests leave no meter, no gauge count and no reference to their listeners behind. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NoLeakTest {

    private static final int REQUESTS = 10_000;

    @Test
    void tenThousandRequestsLeaveNoMeterNoGaugeCountAndNoListenerBehind() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OrderlyMetrics metrics = new OrderlyMetrics(registry);
        int metersBefore = registry.getMeters().size();
        Engine engine = Orderly.engine(EngineConfig.builder().refusedDelay(Duration.ZERO).build());
        // two segments, one stage, two workers; segment 1's first dial is refused, so each request also queues a job
        RequestPlan plan = new RequestPlan(0, 2, 1, 2);
        List<WeakReference<RequestListener>> listeners = new ArrayList<>();

        for (int i = 0; i < REQUESTS; i++) {
            InMemoryOutputStore store = new InMemoryOutputStore();
            ScriptedTier2 fleet = new ScriptedTier2(plan, store::write, job -> job.key().segment() == 1 && job.attempt() == 1
                    ? Script.refuse(1) : Script.succeed());
            RequestListener listener = metrics.listener();
            if (i % 100 == 0) {
                listeners.add(new WeakReference<>(listener));
            }
            engine.run(Request.of(plan, fleet, store, (segment, output) -> { }).withListener(listener));
        }

        assertEquals(metersBefore, registry.getMeters().size(), "meters: " + registry.getMetersAsString());
        assertThat(registry).counter("orderly.requests", Tag.of("result", "done")).hasCount(REQUESTS);
        assertThat(registry).counter("orderly.dials", Tag.of("outcome", "refused")).hasCount(REQUESTS);
        assertThat(registry).gauge("orderly.launch.queued").hasValue(0);
        assertThat(registry).gauge("orderly.launch.dialing").hasValue(0);
        // every listener is collectable once its request ended: neither the metrics nor the engine holds it
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            System.gc();
            return listeners.stream().allMatch(ref -> ref.get() == null);
        });
    }
}
