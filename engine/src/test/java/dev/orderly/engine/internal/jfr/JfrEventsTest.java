package dev.orderly.engine.internal.jfr;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine's JFR events: each type, with its fields, for a small request with one refusal and one failure; and
 * nothing committed while no recording runs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JfrEventsTest {

    private static final List<String> TYPES = List.of("dev.orderly.LaunchWait", "dev.orderly.Dial",
            "dev.orderly.JobRun", "dev.orderly.SegmentDelivered");

    private static final EngineConfig CONFIG = EngineConfig.builder()
            .refusedDelay(Duration.ofMillis(2))
            .failureDelay(Duration.ofMillis(20))
            .build();

    /**
     * Three segments, one stage, one worker: segment 1 is refused on its first dial; segment 2 is admitted and fails
     * (retryable) on its first dial. Everything else succeeds and writes its output.
     */
    private static RequestResult runSmallRequest(String id) throws Exception {
        RequestPlan plan = new RequestPlan(0, 3, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        Tier2Client tier2 = job -> {
            long segment = job.key().segment();
            if (segment == 1 && job.attempt() == 1) {
                throw Tier2Exception.refused("at capacity");
            }
            return () -> {
                if (segment == 2 && job.attempt() == 1) {
                    throw Tier2Exception.retryable("stream reset", null);
                }
                store.write(segment, ("output " + segment).getBytes(StandardCharsets.UTF_8));
            };
        };
        return Orderly.engine(CONFIG).run(Request.of(plan, tier2, store, (segment, output) -> { }).withId(id));
    }

    @Test
    void aRecordingSeesEachEventTypeWithItsFields() throws Exception {
        Map<String, List<RecordedEvent>> seen = new ConcurrentHashMap<>();
        long committedBefore = JfrListener.committed();
        RequestResult result;
        try (RecordingStream stream = new RecordingStream()) {
            for (String type : TYPES) {
                stream.enable(type);
                stream.onEvent(type, e -> seen.computeIfAbsent(type, t -> new CopyOnWriteArrayList<>()).add(e));
            }
            stream.setReuse(false); // the events are read after the callback, which must then not reuse them
            stream.startAsync();
            result = runSmallRequest("r-jfr");
            // 2 launch waits, 5 dials, 4 runs, 3 deliveries
            await().atMost(Duration.ofSeconds(30)).until(() -> count(seen, "dev.orderly.LaunchWait") == 2
                    && count(seen, "dev.orderly.Dial") == 5 && count(seen, "dev.orderly.JobRun") == 4
                    && count(seen, "dev.orderly.SegmentDelivered") == 3);
        }
        assertEquals(3, result.segmentsDelivered());
        assertEquals(14, JfrListener.committed() - committedBefore);

        for (String type : TYPES) {
            for (RecordedEvent e : seen.get(type)) {
                assertEquals("r-jfr", e.getString("requestId"), type);
                assertNull(e.getStackTrace(), type + " carries no stack trace");
                assertTrue(e.getEventType().getCategoryNames().contains("Orderly"), type);
            }
        }
        assertEquals(List.of("0/1 admitted", "1/1 refused", "1/2 admitted", "2/1 admitted", "2/2 admitted"),
                lines(seen.get("dev.orderly.Dial"), "outcome"));
        assertEquals(List.of("0/1 done", "1/2 done", "2/1 retryable", "2/2 done"),
                lines(seen.get("dev.orderly.JobRun"), "outcome"));
        assertEquals(List.of("1/2 refused", "2/2 failed"), lines(seen.get("dev.orderly.LaunchWait"), "cause"));
        assertEquals(List.of(0L, 1L, 2L),
                seen.get("dev.orderly.SegmentDelivered").stream().map(e -> e.getLong("segment")).sorted().toList());
        RecordedEvent refusal = seen.get("dev.orderly.Dial").stream()
                .filter(e -> e.getString("outcome").equals("refused")).findFirst().orElseThrow();
        assertEquals("at capacity", refusal.getString("message"));
        assertEquals(0, refusal.getInt("stage"));
        RecordedEvent failedWait = seen.get("dev.orderly.LaunchWait").stream()
                .filter(e -> e.getString("cause").equals("failed")).findFirst().orElseThrow();
        assertTrue(failedWait.getDuration().compareTo(Duration.ofMillis(20)) >= 0,
                "the wait after a failure lasts the failure delay: " + failedWait.getDuration());
    }

    @Test
    void withNoRecordingRunningNoEventIsCommitted() throws Exception {
        assertFalse(FlightRecorder.getFlightRecorder().getRecordings().stream()
                .map(Recording::getState).anyMatch(s -> s == RecordingState.RUNNING), "a recording runs");
        long committedBefore = JfrListener.committed();

        RequestResult result = runSmallRequest("r-silent");

        assertEquals(3, result.segmentsDelivered());
        assertEquals(committedBefore, JfrListener.committed());
    }

    private static int count(Map<String, List<RecordedEvent>> seen, String type) {
        return seen.getOrDefault(type, List.of()).size();
    }

    /** "segment/attempt field" per event, sorted. */
    private static List<String> lines(List<RecordedEvent> events, String field) {
        return events.stream()
                .map(e -> e.getLong("segment") + "/" + e.getInt("attempt") + " " + e.getString(field))
                .sorted().collect(Collectors.toList());
    }
}
