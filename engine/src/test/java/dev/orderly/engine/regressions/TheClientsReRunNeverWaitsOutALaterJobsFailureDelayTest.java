package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.testlog.LogCapture;
import dev.orderly.testing.ScriptedTier2;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: the re-run of the segment the client waits for looked for a worker to take once, when the output was
 * found missing. With every job on a tier2 at that moment it found none and waited "for the next to end"; but a job
 * that ended on its tier2 by failing kept its worker through its whole failure delay (5 s by default) and dialed again,
 * so the client waited behind a job of a later segment, against "the re-run of the segment you wait for comes first".
 * Plan 3 x 1 on one worker: segment 0's output is missing while segment 1's job runs; segment 1's job then fails and
 * sits out a 30 s failure delay. The re-run now takes that job's worker as soon as the job stops running on its tier2.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TheClientsReRunNeverWaitsOutALaterJobsFailureDelayTest {

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aJobThatFailsWhileTheReRunWaitsGivesItsWorkerUp(boolean ordered) throws Exception {
        RequestPlan plan = new RequestPlan(0, 3, 1, 1);
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofMillis(2))
                .failureDelay(Duration.ofSeconds(30)).ordered(ordered).build();
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch failSegment1 = new CountDownLatch(1);
        CountDownLatch segment1Admitted = new CountDownLatch(1);
        // Counted down in the call's await, not in dial: until dial has returned the job is dialing, not on a tier2,
        // and a re-run that came then would withdraw it rather than wait (under load, the test waited in vain).
        Tier2Client tier2 = job -> call(job, store, failSegment1, segment1Admitted);
        // The walker finds segment 0 missing only once segment 1's job has the one worker, on its tier2.
        OutputStore outputs = segment -> {
            if (segment == 0) {
                try {
                    assertTrue(segment1Admitted.await(10, TimeUnit.SECONDS), "segment 1 never dialed");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException();
                }
            }
            return store.read(segment);
        };
        RecordingClient client = new RecordingClient();
        LogCapture.start();
        Background run = new Background(Orderly.engine(config), Request.of(plan, tier2, outputs, client));
        try {
            // The walker has found segment 0 missing and every job (segment 1's) on a tier2.
            await().atMost(Duration.ofSeconds(10)).until(() -> LogCapture.snapshot().stream()
                    .anyMatch(e -> e.message().contains("every job is on a tier2")));
            failSegment1.countDown();
            // Segment 1's job now sits out its 30 s failure delay: the re-run must not wait behind it.
            await().atMost(Duration.ofSeconds(10)).until(() -> client.segments().equals(List.of(0L)));
        } finally {
            failSegment1.countDown();
            LogCapture.stop();
            run.interrupt();
        }
        assertInstanceOf(InterruptedException.class, run.failure(10));
        assertEquals(List.of(0L), client.segments());
    }

    /**
     * Segment 0's first job loses its output; segment 1's first job says it is on its tier2, then fails once
     * {@code failSegment1} opens.
     */
    private static Tier2Call call(Job job, InMemoryOutputStore store, CountDownLatch failSegment1,
            CountDownLatch segment1Admitted) {
        return new Tier2Call() {
            @Override
            public void await() throws Tier2Exception, InterruptedException {
                long segment = job.key().segment();
                if (segment == 1 && job.attempt() == 1) {
                    segment1Admitted.countDown();
                    failSegment1.await();
                    throw Tier2Exception.retryable("stream reset", null);
                }
                if (segment != 0 || job.attempt() > 1) {
                    store.write(segment, ScriptedTier2.outputOf(segment));
                }
            }
        };
    }
}
