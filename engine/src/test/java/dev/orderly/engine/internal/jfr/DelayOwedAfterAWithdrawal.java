package dev.orderly.engine.internal.jfr;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

/**
 * The scene of the tests of a delay owed after a withdrawal, as JFR records it. Plan 3 x 1 on one worker: segment 0's
 * output is missing while segment 1's job runs on its tier2; segment 1's call then ends with what the test says
 * (nothing ran, or it failed) and, the re-run waiting for its worker, the job is withdrawn; its unit's next job owes
 * the delay.
 */
final class DelayOwedAfterAWithdrawal {

    private DelayOwedAfterAWithdrawal() {
    }

    /**
     * Runs the scene with {@code config} and returns segment 1's {@code dev.orderly.LaunchWait} events, each as
     * "attempt N cause".
     *
     * @param told what segment 1's first call ends with
     */
    static List<String> waitsOfSegment1(String id, EngineConfig config, Supplier<Tier2Exception> told)
            throws Throwable {
        RequestPlan plan = new RequestPlan(0, 3, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch failSegment1 = new CountDownLatch(1);
        CountDownLatch segment1Admitted = new CountDownLatch(1);
        Tier2Client tier2 = job -> call(job, store, failSegment1, segment1Admitted, told);
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
        List<RecordedEvent> events = new CopyOnWriteArrayList<>();
        try (RecordingStream stream = new RecordingStream()) {
            stream.enable("dev.orderly.LaunchWait");
            stream.enable("dev.orderly.Dial");
            stream.onEvent("dev.orderly.LaunchWait", events::add);
            stream.onEvent("dev.orderly.Dial", events::add);
            stream.setReuse(false);
            stream.startAsync();
            LogCapture.start();
            Background run = new Background(Orderly.engine(config),
                    Request.of(plan, tier2, outputs, new RecordingClient()).withId(id));
            try {
                // The walker has found segment 0 missing with segment 1's job on its tier2: the re-run waits.
                await().atMost(Duration.ofSeconds(10)).until(() -> LogCapture.snapshot().stream()
                        .anyMatch(e -> e.message().contains("every job is on a tier2")));
            } finally {
                failSegment1.countDown();
                LogCapture.stop();
            }
            assertEquals(3, run.get(20).segmentsDelivered());
            // Segment 1 dialed twice: its second dial came after the wait in question.
            await().atMost(Duration.ofSeconds(30)).until(() -> dials(events, id) >= 4);
        }
        return events.stream()
                .filter(e -> e.getEventType().getName().equals("dev.orderly.LaunchWait"))
                .filter(e -> e.getString("requestId").equals(id) && e.getLong("segment") == 1)
                .map(e -> "attempt " + e.getInt("attempt") + " " + e.getString("cause")).toList();
    }

    private static long dials(List<RecordedEvent> events, String id) {
        return events.stream().filter(e -> e.getEventType().getName().equals("dev.orderly.Dial"))
                .filter(e -> e.getString("requestId").equals(id)).count();
    }

    /**
     * Segment 0's first job loses its output; segment 1's first job is on its tier2, then ends with {@code told} when
     * told to.
     */
    private static Tier2Call call(Job job, InMemoryOutputStore store, CountDownLatch failSegment1,
            CountDownLatch segment1Admitted, Supplier<Tier2Exception> told) {
        return () -> {
            long segment = job.key().segment();
            if (segment == 1 && job.attempt() == 1) {
                segment1Admitted.countDown();
                failSegment1.await();
                throw told.get();
            }
            if (segment != 0 || job.attempt() > 1) {
                store.write(segment, ScriptedTier2.outputOf(segment));
            }
        };
    }
}
