package dev.orderly.engine.internal.jfr;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.SegmentConsumer;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * JfrListener: a run cut short by "its unit's own cancellation" is {@code abandoned}; only one the request's end cut
 * short is {@code cancelled}. A run whose unit a higher stage covered, and whose call the cover was still closing when
 * the request ended (its last segment delivered), was recorded as {@code cancelled} in a request that ended done: the
 * request's stop marked every job still registered as cancelled by the stop, even one its cover had cancelled first,
 * for which the stop's cancel did nothing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ARunCoveredBeforeTheRequestsEndStaysAbandonedTest {

    private static final JobKey COVERED = new JobKey(1, 0);
    private static final JobKey COVERING = new JobKey(1, 1);

    @Test
    void aRunItsCoverCancelledIsAbandonedEvenWhenTheRequestEndsWhileItsCallCloses() throws Throwable {
        // (1,0) runs until (1,1), done, covers it. The cover's close of (1,0)'s call lasts until the walker, which
        // delivers the last segment once that close has begun, has ended: the request's stop comes while the covered
        // job is still ending.
        RequestPlan plan = new RequestPlan(0, 2, 2, 3);
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch coveredRuns = new CountDownLatch(1);
        CountDownLatch coverClosesCovered = new CountDownLatch(1);
        CountDownLatch walkerKnown = new CountDownLatch(1);
        Thread[] walker = new Thread[1];
        Tier2Client tier2 = job -> {
            JobKey key = job.key();
            CountDownLatch closed = new CountDownLatch(1);
            return new Tier2Call() {
                @Override
                public void await() throws InterruptedException {
                    if (key.equals(COVERED)) {
                        coveredRuns.countDown();
                        closed.await(); // until its unit is covered and its call closed
                        return;
                    }
                    if (key.equals(COVERING)) {
                        coveredRuns.await();
                    }
                    if (key.stage() == 1) {
                        store.write(key.segment(), ("output " + key.segment()).getBytes(StandardCharsets.UTF_8));
                    }
                }

                @Override
                public void close() {
                    closed.countDown();
                    if (key.equals(COVERED) && coverClosesCovered.getCount() > 0) {
                        coverClosesCovered.countDown();
                        try {
                            if (walkerKnown.await(10, TimeUnit.SECONDS)) {
                                walker[0].join(TimeUnit.SECONDS.toMillis(10));
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            };
        };
        // The last delivery (after which the request stops) waits until the cover is closing the covered job's call.
        SegmentConsumer client = (segment, output) -> {
            if (segment == 1) {
                walker[0] = Thread.currentThread();
                walkerKnown.countDown();
                coverClosesCovered.await(10, TimeUnit.SECONDS);
            }
        };
        List<RecordedEvent> runs = new CopyOnWriteArrayList<>();
        try (RecordingStream stream = new RecordingStream()) {
            stream.enable("dev.orderly.JobRun");
            stream.onEvent("dev.orderly.JobRun", runs::add);
            stream.setReuse(false);
            stream.startAsync();
            Background run = new Background(Orderly.engine(Fixtures.fast()),
                    Request.of(plan, tier2, store, client).withId("r-covered-at-the-end"));
            assertEquals(2, run.get(30).segmentsDelivered());
            await().atMost(Duration.ofSeconds(30)).until(() -> outcomeOf(runs, COVERED).size() == 1);
        }
        assertEquals(List.of("abandoned"), outcomeOf(runs, COVERED),
                "the covered run's outcome, in a request that ended done");
    }

    private static List<String> outcomeOf(List<RecordedEvent> runs, JobKey key) {
        return runs.stream()
                .filter(e -> e.getString("requestId").equals("r-covered-at-the-end")
                        && e.getLong("segment") == key.segment() && e.getInt("stage") == key.stage())
                .map(e -> e.getString("outcome")).toList();
    }
}
