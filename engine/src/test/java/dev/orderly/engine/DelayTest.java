package dev.orderly.engine;

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
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The refused and failure delays are honoured, in both modes: after a refusal (or failure) with a 1 s delay, the
 * unit's next dial comes no sooner than 1 s later, while every other unit, on a 1 ms delay, is not held back. The
 * bound is a lower one, which a slow machine can only make easier to meet.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class DelayTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 4, 1, 2);
    private static final JobKey UNIT = new JobKey(1, 0);

    @ParameterizedTest(name = "{0} ordered={1}")
    // "refused, true" is in RefusedDelayAndFreedSlotTest: in ordered mode a job of the request that ends (here the
    // other unit) lets a refused job dial before its delay is up.
    @CsvSource({"failure, true", "failure, false", "refused, false"})
    void aJobDoesNotRedialBeforeItsDelay(String kind, boolean ordered) throws Exception {
        boolean failure = kind.equals("failure");
        Duration second = Duration.ofSeconds(1);
        Duration millisecond = Duration.ofMillis(1);
        EngineConfig config = EngineConfig.builder()
                .failureDelay(failure ? second : millisecond)
                .refusedDelay(failure ? millisecond : second)
                .ordered(ordered)
                .build();
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> {
            if (!job.key().equals(UNIT) || job.attempt() > 1) {
                return Script.succeed();
            }
            return failure
                    ? Script.throwOnAwait(Tier2Exception.retryable("stream reset", null))
                    : Script.refuse(1);
        });
        AtomicLong setBackAt = new AtomicLong();
        AtomicLong redialAt = new AtomicLong();
        RequestListener clock = new RequestListener() {
            @Override
            public void onRefused(Job job, Tier2Exception cause) {
                setBackAt.set(System.nanoTime());
            }

            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                setBackAt.set(System.nanoTime());
            }

            @Override
            public void onDial(Job job) {
                if (job.key().equals(UNIT) && job.attempt() == 2) {
                    redialAt.set(System.nanoTime());
                }
            }
        };

        RequestResult result = Orderly.engine(config)
                .run(Request.of(PLAN, tier2, store, new RecordingClient()).withListener(clock));

        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(redialAt.get() - setBackAt.get());
        assertTrue(waitedMillis >= 1000, "redialed " + waitedMillis + " ms after the " + kind);
        assertEquals(2, tier2.log().dialsOf(UNIT));
        assertEquals(4, result.segmentsDelivered());
        assertEquals(failure ? 1 : 0, result.failures());
        assertEquals(failure ? 0 : 1, result.refusals());
    }
}
