package dev.orderly.engine;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The refused and failure delays are honoured, in both modes: a job does not redial before its delay (1 s), checked
 * over 300 ms, and does redial after it.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class DelayTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 4, 1, 2);
    private static final JobKey UNIT = new JobKey(1, 0);

    @ParameterizedTest(name = "{0} ordered={1}")
    @CsvSource({"failure, true", "failure, false", "refused, true", "refused, false"})
    void aJobDoesNotRedialBeforeItsDelay(String kind, boolean ordered) throws Throwable {
        boolean failure = kind.equals("failure");
        Duration second = Duration.ofSeconds(1);
        Duration millisecond = Duration.ofMillis(1);
        EngineConfig config = EngineConfig.builder()
                .failureDelay(failure ? second : millisecond)
                .refusedDelay(failure ? millisecond : second)
                .ordered(ordered)
                .build();
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store, job -> {
            if (!job.key().equals(UNIT) || job.attempt() > 1) {
                return ScriptedTier2.OK;
            }
            return failure
                    ? ScriptedTier2.awaitThrows(Tier2Exception.retryable("stream reset", null))
                    : ScriptedTier2.refused();
        });
        Background run = new Background(Orderly.engine(config), Request.of(PLAN, tier2, store, new RecordingClient()));

        await().atMost(Duration.ofSeconds(5)).until(() -> tier2.dialsOf(UNIT) == 1);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofMillis(900)).until(() -> tier2.dialsOf(UNIT) == 1);
        RequestResult result = run.get(10);

        assertEquals(2, tier2.dialsOf(UNIT));
        assertEquals(4, result.segmentsDelivered());
        assertEquals(failure ? 1 : 0, result.failures());
        assertEquals(failure ? 0 : 1, result.refusals());
    }
}
