package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A job that timed out got into a tier2 and used it up; it is retried like any failed job, no sooner than the failure
 * delay after the timeout, whether the timeout came from {@code dial} or from {@code await}. Redialing at once would
 * hammer a fleet that is too slow for the job.
 *
 * <p>The delay is measured from the timed-out attempt's dial, which comes before the timeout: the bound is a lower
 * one, which a slow machine can only make easier to meet.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AnExecutionTimeoutIsRetriedOnlyAfterTheFailureDelayTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 4, 1, 2);
    private static final JobKey UNIT = new JobKey(1, 0);
    private static final Duration FAILURE_DELAY = Duration.ofSeconds(1);

    @ParameterizedTest(name = "timeout from {0}, ordered={1}")
    @CsvSource({"await, true", "await, false", "dial, true", "dial, false"})
    void theRedialAfterATimeoutWaitsTheFailureDelay(String from, boolean ordered) throws Exception {
        EngineConfig config = EngineConfig.builder()
                .failureDelay(FAILURE_DELAY)
                .refusedDelay(Duration.ofMillis(1))
                .ordered(ordered)
                .build();
        Tier2Exception timeout = Tier2Exception.executionTimeout("deadline exceeded");
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> {
            if (!job.key().equals(UNIT) || job.attempt() > 1) {
                return Script.succeed();
            }
            return from.equals("dial") ? Script.throwOnDial(timeout) : Script.throwOnAwait(timeout);
        });
        AtomicLong firstDialAt = new AtomicLong();
        AtomicLong redialAt = new AtomicLong();
        RequestListener clock = new RequestListener() {
            @Override
            public void onDial(Job job) {
                if (job.key().equals(UNIT)) {
                    (job.attempt() == 1 ? firstDialAt : redialAt).set(System.nanoTime());
                }
            }
        };

        RequestResult result = Orderly.engine(config)
                .run(Request.of(PLAN, tier2, store, new RecordingClient()).withListener(clock));

        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(redialAt.get() - firstDialAt.get());
        assertTrue(waitedMillis >= FAILURE_DELAY.toMillis(),
                "redialed " + waitedMillis + " ms after the timed-out dial began");
        assertEquals(2, tier2.log().dialsOf(UNIT));
        assertEquals(1, result.executionTimeouts());
        assertEquals(0, result.failures());
        assertEquals(4, result.segmentsDelivered());
    }
}
