package dev.orderly.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: {@code orderly.launch.wait} times "a job's wait for its turn to dial: from … being sent back by a
 * refusal or failure, to its next dial". A job that got in, failed, and gave its worker up to the client's re-run
 * before its next dial leaves the failure delay to its unit's next job, which waits it out before its first dial.
 * With ordered launch off nothing told the listener that wait began (the withdrawal's {@code onAbandoned} had ended
 * the failed job's), so the timer recorded nothing for it. The listener now hears {@code onFailureDelayOwed}.
 *
 * <p>Plan 3 x 1 on one worker: segment 0's output is missing while segment 1's job runs; segment 1's job then fails
 * and, the re-run waiting for its worker, is withdrawn; its unit's next job owes a failure delay of 1 s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TheLaunchWaitTimesAFailureDelayOwedAfterAWithdrawalTest {

    private static final Duration FAILURE_DELAY = Duration.ofSeconds(1);

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void theOwedDelayIsOneLaunchWait(boolean ordered) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OrderlyMetrics metrics = new OrderlyMetrics(registry);
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch segment1Admitted = new CountDownLatch(1);
        CountDownLatch rerunAsked = new CountDownLatch(1);
        OutputStore outputs = segment -> {
            if (segment == 0) {
                try {
                    assertTrue(segment1Admitted.await(20, TimeUnit.SECONDS), "segment 1 never ran");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException();
                }
            }
            return store.read(segment);
        };
        RequestListener rerun = new RequestListener() {
            @Override
            public void onRerun(JobKey key) {
                rerunAsked.countDown();
            }
        };
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofMillis(2)).failureDelay(FAILURE_DELAY)
                .ordered(ordered).build();
        Request request = Request.of(new RequestPlan(0, 3, 1, 1),
                job -> call(job, store, segment1Admitted, rerunAsked), outputs, (segment, output) -> { })
                .withListener(metrics.listener(rerun));

        RequestResult result = Orderly.engine(config).run(request);

        assertEquals(3, result.segmentsDelivered());
        assertEquals(1, result.reruns());
        Timer launchWait = registry.get("orderly.launch.wait").timer();
        // The gate waits out the whole delay, so the longest recorded wait is at least that; noise only lengthens it.
        assertTrue(launchWait.max(TimeUnit.MILLISECONDS) >= FAILURE_DELAY.toMillis() * 0.9,
                "no launch wait as long as the owed failure delay (" + FAILURE_DELAY.toMillis() + " ms): "
                        + launchWait.count() + " waits, the longest " + launchWait.max(TimeUnit.MILLISECONDS)
                        + " ms");
    }

    /** Segment 0's first job loses its output; segment 1's first job is on its tier2, then fails at the re-run. */
    private static Tier2Call call(Job job, InMemoryOutputStore store, CountDownLatch segment1Admitted,
            CountDownLatch rerunAsked) {
        return () -> {
            long segment = job.key().segment();
            if (segment == 1 && job.attempt() == 1) {
                segment1Admitted.countDown();
                assertTrue(rerunAsked.await(20, TimeUnit.SECONDS), "segment 0 was never re-run");
                throw Tier2Exception.retryable("stream reset", null);
            }
            if (segment != 0 || job.attempt() > 1) {
                store.write(segment, new byte[] {(byte) segment});
            }
        };
    }
}
