package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.testlog.LogCapture;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.event.Level;

/**
 * With resume, the request's summary line said "1 segment(s) delivered (10 found in the store)": it counted every
 * segment the walker had looked up in the store ahead of the client (the whole look-ahead window), delivered or not,
 * so a request that failed early named more segments "found in the store" than it delivered at all. The parenthesis
 * counts the delivered segments that came from the store.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheSummaryCountsOnlyDeliveredSegmentsAsFoundInTheStoreTest {

    @AfterEach
    void stopCapture() {
        LogCapture.stop();
    }

    @Test
    void aResumedRequestThatFailsEarlyCountsOnlyWhatItDeliveredFromTheStore() {
        // Ten segments, all stored already; five workers give a look-ahead of ten, so the walker looks every one up
        // before it delivers the first. The client fails on segment 1: one segment delivered, from the store.
        RequestPlan plan = new RequestPlan(0, 10, 1, 5);
        InMemoryOutputStore store = new InMemoryOutputStore();
        for (long s = 0; s < 10; s++) {
            store.write(s, ("output " + s).getBytes(StandardCharsets.UTF_8));
        }
        LogCapture.start();
        RequestFailedException failed = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(plan, job -> {
                    throw new AssertionError("nothing runs: every segment is in the store");
                }, store, (segment, output) -> {
                    if (segment == 1) {
                        throw new IllegalStateException("client gives up");
                    }
                }).withId("r-found").withResume(true)));
        List<LogCapture.Event> events = LogCapture.stop();

        assertEquals(1, failed.partialResult().orElseThrow().segmentsDelivered());
        String summary = events.stream()
                .filter(e -> e.level() == Level.INFO && e.logger().endsWith(".OrderlyEngine"))
                .map(LogCapture.Event::message).findFirst().orElseThrow();
        assertEquals("1 segment(s) delivered (1 found in the store)",
                summary.replaceAll(".*; (\\d+ segment\\(s\\) delivered( \\(\\d+ found in the store\\))?).*", "$1"),
                summary);
    }
}
