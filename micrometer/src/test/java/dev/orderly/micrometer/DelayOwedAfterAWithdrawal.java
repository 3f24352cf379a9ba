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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The scene of the tests of a delay owed after a withdrawal, as the launch-wait timer records it. Plan 3 x 1 on one
 * worker: segment 0's output is missing while segment 1's job runs on its tier2; at the re-run segment 1's call ends
 * with what the test says (nothing ran, or it failed) and, the re-run waiting for its worker, the job is withdrawn;
 * its unit's next job owes the delay.
 */
final class DelayOwedAfterAWithdrawal {

    private DelayOwedAfterAWithdrawal() {
    }

    /**
     * Runs the scene with {@code config}, checks that every segment was delivered after one re-run, and returns the
     * {@code orderly.launch.wait} timer.
     *
     * @param told what segment 1's first call ends with
     */
    static Timer launchWait(EngineConfig config, Supplier<Tier2Exception> told) throws Exception {
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
        Request request = Request.of(new RequestPlan(0, 3, 1, 1),
                job -> call(job, store, segment1Admitted, rerunAsked, told), outputs, (segment, output) -> { })
                .withListener(metrics.listener(rerun));

        RequestResult result = Orderly.engine(config).run(request);
        assertEquals(3, result.segmentsDelivered());
        assertEquals(1, result.reruns());
        return registry.get("orderly.launch.wait").timer();
    }

    /**
     * Segment 0's first job loses its output; segment 1's first job is on its tier2, then ends with {@code told} at
     * the re-run.
     */
    private static Tier2Call call(Job job, InMemoryOutputStore store, CountDownLatch segment1Admitted,
            CountDownLatch rerunAsked, Supplier<Tier2Exception> told) {
        return () -> {
            long segment = job.key().segment();
            if (segment == 1 && job.attempt() == 1) {
                segment1Admitted.countDown();
                assertTrue(rerunAsked.await(20, TimeUnit.SECONDS), "segment 0 was never re-run");
                throw told.get();
            }
            if (segment != 0 || job.attempt() > 1) {
                store.write(segment, new byte[] {(byte) segment});
            }
        };
    }
}
