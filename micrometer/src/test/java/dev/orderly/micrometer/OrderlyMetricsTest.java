package dev.orderly.micrometer;

import static io.micrometer.core.tck.MeterRegistryAssert.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every meter of {@link OrderlyMetrics} against the engine on a scripted fleet whose refusals, failures, timeouts and
 * re-runs are known: counts equal the {@link RequestResult}'s, timers record once per event, gauges go back to 0.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrderlyMetricsTest {

    private static EngineConfig config(boolean ordered) {
        return EngineConfig.builder()
                .refusedDelay(Duration.ofMillis(2))
                .failureDelay(Duration.ofMillis(5))
                .maxExecutionTimeouts(3)
                .ordered(ordered)
                .build();
    }

    private static double gauge(MeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }

    private static Tag outcome(String value) {
        return Tag.of("outcome", value);
    }

    /**
     * Eight segments, one stage, one worker (so one job at a time, and every figure is known):
     * segment 1 is refused, then unreachable, then admitted; segment 2's first run fails (retryable); segment 3's
     * first dial times out; segment 4's first run times out; segment 5's first run leaves no output (a re-run).
     */
    private static Script bumpy(Job job) {
        int attempt = job.attempt();
        return switch ((int) job.key().segment()) {
            case 1 -> attempt == 1 ? Script.refuse(1)
                    : attempt == 2 ? Script.unreachable(1) : Script.succeed();
            case 2 -> attempt == 1 ? Script.fail() : Script.succeed();
            case 3 -> attempt == 1 ? Script.throwOnDial(Tier2Exception.executionTimeout("dial deadline")) : Script.succeed();
            case 4 -> attempt == 1 ? Script.timeOut() : Script.succeed();
            case 5 -> attempt == 1 ? Script.loseOutput() : Script.succeed();
            default -> Script.succeed();
        };
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void everyMeterMatchesTheRequestsFiguresOnAFleetWithKnownTrouble(boolean ordered) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OrderlyMetrics metrics = new OrderlyMetrics(registry);
        List<Double> gaugesAtSegment1sThirdDial = new CopyOnWriteArrayList<>();
        InMemoryOutputStore store = new InMemoryOutputStore();
        RequestPlan plan = new RequestPlan(0, 8, 1, 1);
        ScriptedTier2 fleet = new ScriptedTier2(plan, store::write, job -> {
            if (job.key().segment() == 1 && job.attempt() == 3) {
                gaugesAtSegment1sThirdDial.add(gauge(registry, "orderly.launch.queued"));
                gaugesAtSegment1sThirdDial.add(gauge(registry, "orderly.launch.dialing"));
            }
            return bumpy(job);
        });

        RequestResult result = Orderly.engine(config(ordered)).run(
                Request.of(plan, fleet, store, (segment, output) -> { }).withListener(metrics.listener()));

        // the script's figures, as the engine counted them
        assertEquals(8, result.segmentsDelivered());
        assertEquals(14, result.dials());
        assertEquals(11, result.admissions());
        assertEquals(2, result.refusals());
        assertEquals(1, result.failures());
        assertEquals(2, result.executionTimeouts());
        assertEquals(1, result.reruns());
        // ... and as the meters counted them
        assertThat(registry).counter("orderly.dials", outcome("admitted")).hasCount((int) result.admissions());
        assertThat(registry).counter("orderly.dials", outcome("refused")).hasCount(1);
        assertThat(registry).counter("orderly.dials", outcome("unreachable")).hasCount(1);
        assertThat(registry).counter("orderly.dials", outcome("retryable")).hasCount((int) result.failures());
        assertThat(registry).counter("orderly.dials", outcome("execution_timeout"))
                .hasCount((int) result.executionTimeouts());
        assertThat(registry).counter("orderly.dials", outcome("fatal")).hasCount(0);
        assertThat(registry).counter("orderly.segments.delivered").hasCount((int) result.segmentsDelivered());
        assertThat(registry).counter("orderly.requests", Tag.of("result", "done")).hasCount(1);
        assertThat(registry).counter("orderly.requests", Tag.of("result", "failed")).hasCount(0);
        assertThat(registry).counter("orderly.requests", Tag.of("result", "cancelled")).hasCount(0);
        // one wait before each redial (after 2 refusals, 1 failure, 2 timeouts); the first dials found no queue
        assertThat(registry).timer("orderly.launch.wait").hasCount(5);
        assertThat(registry).timer("orderly.launch.wait").totalTime()
                .isGreaterThanOrEqualTo(Duration.ofMillis(2 * 2 + 3 * 5));
        // one run per segment that ended well, plus the re-run
        assertThat(registry).timer("orderly.job.duration").hasCount(9);
        assertThat(registry).timer("orderly.request.first.segment").hasCount(1);
        assertThat(registry).timer("orderly.request.first.segment").totalTime()
                .isEqualTo(result.timeToFirstSegment());
        // segment 1, refused once, waits in the launch queue (ordered) while it dials the third time
        assertEquals(List.of(ordered ? 1.0 : 0.0, 1.0), gaugesAtSegment1sThirdDial);
        assertThat(registry).gauge("orderly.launch.queued").hasValue(0);
        assertThat(registry).gauge("orderly.launch.dialing").hasValue(0);
    }

    @Test
    void aFailedAndACancelledRequestAreCountedAndGiveBackTheirGauges() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OrderlyMetrics metrics = new OrderlyMetrics(registry);
        InMemoryOutputStore store = new InMemoryOutputStore();
        RequestPlan plan = new RequestPlan(0, 4, 1, 2);

        ScriptedTier2 failing = new ScriptedTier2(plan, store::write, job -> Script.throwOnDial(Tier2Exception.fatal("bad request", null)));
        assertThrows(RequestFailedException.class, () -> Orderly.engine(config(true)).run(
                Request.of(plan, failing, store, (segment, output) -> { }).withListener(metrics.listener())));

        ScriptedTier2 stuck = new ScriptedTier2(plan, store::write, job -> Script.blockDial());
        CompletableFuture<Throwable> cancelled = new CompletableFuture<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                Orderly.engine(config(true)).run(
                        Request.of(plan, stuck, store, (segment, output) -> { }).withListener(metrics.listener()));
                cancelled.complete(null);
            } catch (Throwable t) {
                cancelled.complete(t);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> stuck.blocked() == 2);
        assertThat(registry).gauge("orderly.launch.dialing").hasValue(2);
        caller.interrupt();

        assertInstanceOf(InterruptedException.class, cancelled.get(10, TimeUnit.SECONDS));
        assertThat(registry).counter("orderly.requests", Tag.of("result", "failed")).hasCount(1);
        assertThat(registry).counter("orderly.requests", Tag.of("result", "cancelled")).hasCount(1);
        assertThat(registry).counter("orderly.requests", Tag.of("result", "done")).hasCount(0);
        // every dial failed fatally; how many were sent before the first failure cancelled the rest varies
        assertThat(registry).counter("orderly.dials", outcome("fatal")).hasCount(failing.log().dials().size());
        assertThat(registry).timer("orderly.request.first.segment").hasCount(0);
        assertThat(registry).gauge("orderly.launch.queued").hasValue(0);
        assertThat(registry).gauge("orderly.launch.dialing").hasValue(0);
    }

    @Test
    void theEmbeddersListenerSeesEveryEventAfterTheMetersRecordedIt() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OrderlyMetrics metrics = new OrderlyMetrics(registry, Tags.of("fleet", "test"));
        AtomicInteger dialsSeen = new AtomicInteger();
        List<RequestResult> ends = new CopyOnWriteArrayList<>();
        RequestListener own = new RequestListener() {
            @Override
            public void onDial(Job job) {
                dialsSeen.incrementAndGet();
                throw new IllegalStateException("the embedder's listener has a bug");
            }

            @Override
            public void onRequestDone(RequestResult result) {
                ends.add(result);
            }
        };
        InMemoryOutputStore store = new InMemoryOutputStore();
        RequestPlan plan = new RequestPlan(0, 8, 1, 1);
        ScriptedTier2 fleet = new ScriptedTier2(plan, store::write, OrderlyMetricsTest::bumpy);

        RequestResult result = Orderly.engine(config(true)).run(Request.of(plan, fleet, store,
                (segment, output) -> { }).withListener(metrics.listener(own)));

        assertEquals(result.dials(), dialsSeen.get());
        assertEquals(List.of(result), ends);
        assertThat(registry).counter("orderly.dials", outcome("admitted"), Tag.of("fleet", "test"))
                .hasCount((int) result.admissions());
        assertThat(registry).timer("orderly.launch.wait", Tag.of("fleet", "test")).hasCount(5);
    }
}
