package dev.orderly.engine.internal.jfr;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * JfrListener's javadoc (and the architecture's JFR section): "An event still open when the request ends (its thread
 * was interrupted in a dial or a run) is committed with the outcome {@code cancelled}". A run cut short by the
 * request's end was committed as {@code abandoned}, the outcome of a job whose unit a higher stage covered, so a
 * recording could not tell a cancelled or failed request's cut runs from covered ones; the dial cut short in the same
 * request said {@code cancelled}. A run whose own unit was covered stays {@code abandoned}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ARunCutShortByTheRequestsCancellationIsRecordedAsCancelledTest {

    private static final JobKey RUNNING = new JobKey(0, 0);
    private static final JobKey DIALING = new JobKey(1, 0);

    /** Segment 0 runs (admitted, held in await), segment 1 is held in its dial, until the request ends. */
    private static List<String> recordedOutcomes(String id, boolean cancel) throws Exception {
        RequestPlan plan = new RequestPlan(0, 3, 1, 3);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2[] tier2 = new ScriptedTier2[1];
        tier2[0] = new ScriptedTier2(plan, store::write, job -> {
            if (job.key().equals(RUNNING)) {
                return Script.block();
            }
            if (job.key().equals(DIALING)) {
                return Script.blockDial();
            }
            // segment 2 fails the request (when not cancelled) once both others are held
            await().atMost(Duration.ofSeconds(10)).until(() -> tier2[0].blocked() == 2);
            return cancel ? Script.block() : Script.throwOnDial(Tier2Exception.fatal("module panicked", null));
        });
        List<RecordedEvent> events = new CopyOnWriteArrayList<>();
        try (RecordingStream stream = new RecordingStream()) {
            stream.enable("dev.orderly.Dial");
            stream.enable("dev.orderly.JobRun");
            stream.onEvent("dev.orderly.Dial", events::add);
            stream.onEvent("dev.orderly.JobRun", events::add);
            stream.setReuse(false);
            stream.startAsync();
            Background run = new Background(Orderly.engine(Fixtures.fast()),
                    Request.of(plan, tier2[0], store, new RecordingClient()).withId(id));
            if (cancel) {
                await().atMost(Duration.ofSeconds(10)).until(() -> tier2[0].blocked() == 3);
                run.interrupt();
                assertInstanceOf(InterruptedException.class, run.failure(10));
            } else {
                assertInstanceOf(RequestFailedException.class, run.failure(10));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> outcomes(events, id).size() >= 3);
        }
        return outcomes(events, id);
    }

    private static List<String> outcomes(List<RecordedEvent> events, String id) {
        return events.stream()
                .filter(e -> e.getString("requestId").equals(id))
                .filter(e -> e.getLong("segment") < 2)
                .map(e -> e.getEventType().getName().substring("dev.orderly.".length()) + " " + e.getLong("segment")
                        + " " + e.getString("outcome"))
                .sorted().toList();
    }

    @Test
    void theRunAndTheDialOfACancelledRequestAreBothCancelled() throws Exception {
        assertEquals(List.of("Dial 0 admitted", "Dial 1 cancelled", "JobRun 0 cancelled"),
                recordedOutcomes("r-cancelled", true));
    }

    @Test
    void theRunAndTheDialCutByAnotherUnitsFailureAreBothCancelled() throws Exception {
        assertEquals(List.of("Dial 0 admitted", "Dial 1 cancelled", "JobRun 0 cancelled"),
                recordedOutcomes("r-failed", false));
    }

    @Test
    void aRunWhoseUnitACoveringStageCutShortStaysAbandoned() throws Throwable {
        // (1,0) runs until (1,1), which waits for it to run, is done and covers it; segment 2 keeps the request alive
        // until the covered run is recorded.
        RequestPlan plan = new RequestPlan(0, 3, 2, 3);
        JobKey covered = new JobKey(1, 0);
        JobKey covering = new JobKey(1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch coveredRuns = new CountDownLatch(1);
        Tier2Client tier2 = job -> {
            JobKey key = job.key();
            return (Tier2Call) () -> {
                if (key.equals(covered)) {
                    coveredRuns.countDown();
                    new CountDownLatch(1).await(); // until its unit is covered: closed and interrupted
                }
                if (key.equals(covering)) {
                    coveredRuns.await();
                }
                if (key.segment() == 2) {
                    release.await();
                }
                if (key.stage() == 1) {
                    store.write(key.segment(), ("output " + key.segment()).getBytes(StandardCharsets.UTF_8));
                }
            };
        };
        List<RecordedEvent> runs = new CopyOnWriteArrayList<>();
        try (RecordingStream stream = new RecordingStream()) {
            stream.enable("dev.orderly.JobRun");
            stream.onEvent("dev.orderly.JobRun", runs::add);
            stream.setReuse(false);
            stream.startAsync();
            Background run = new Background(Orderly.engine(Fixtures.fast()),
                    Request.of(plan, tier2, store, new RecordingClient()).withId("r-covered"));
            try {
                await().atMost(Duration.ofSeconds(20)).until(() -> !coveredRunOutcomes(runs).isEmpty());
            } finally {
                release.countDown();
            }
            assertEquals(3, run.get(10).segmentsDelivered());
        }
        assertEquals(List.of("abandoned"), coveredRunOutcomes(runs));
    }

    private static List<String> coveredRunOutcomes(List<RecordedEvent> runs) {
        return runs.stream()
                .filter(e -> e.getString("requestId").equals("r-covered") && e.getLong("segment") == 1
                        && e.getInt("stage") == 0)
                .map(e -> e.getString("outcome")).toList();
    }
}
