package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 19, defect 4: the re-run of the segment the client waits for waited behind a queued higher job. Plan 4 × 1,
 * 3 workers: segment 0's output goes missing while segments 1 and 2 run and segment 3 is refused over and over; the
 * re-run of segment 0 got no worker for as long as 1 and 2 ran, while segment 3 kept dialing. The highest queued,
 * not-admitted job now gives its worker up.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheClientsReRunNeverWaitsForAWorkerTest {

    private static EngineConfig config(boolean ordered) {
        return ordered ? Fixtures.fast() : Fixtures.fastUnordered();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void theHighestQueuedJobGivesItsWorkerUpToTheReRun(boolean ordered) throws Throwable {
        reRunOvertakesTheRefusedSegment3(config(ordered), new RequestPlan(0, 4, 1, 3));
    }

    /**
     * Segments 0..3 of {@code plan}, one stage, run under {@code config} with exactly three jobs' room (the plan's
     * workers or the engine's cap): segment 0's output is missing the first time, segments 1 and 2 hold their room
     * until the re-run of segment 0 has reached the client, and segment 3 is refused until then.
     */
    static void reRunOvertakesTheRefusedSegment3(EngineConfig config, RequestPlan plan) throws Throwable {
        InMemoryOutputStore written = new InMemoryOutputStore();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch segment3Dialed = new CountDownLatch(1);
        List<Job> dials = new CopyOnWriteArrayList<>();
        Tier2Client tier2 = job -> {
            dials.add(job);
            long segment = job.key().segment();
            if (segment == 3) {
                segment3Dialed.countDown();
                if (release.getCount() > 0) {
                    throw Tier2Exception.refused("at capacity");
                }
            }
            return new Tier2Call() {
                @Override
                public void await() throws InterruptedException {
                    if (segment == 1 || segment == 2) {
                        release.await();
                    }
                    if (segment != 0 || job.attempt() > 1) {
                        written.write(segment, ScriptedTier2.outputOf(segment));
                    }
                }
            };
        };
        // The walker finds segment 0 missing only once segment 3 holds the last room (worker or permit).
        OutputStore store = new OutputStore() {
            private boolean first = true;

            @Override
            public Optional<byte[]> read(long segment) throws java.io.IOException {
                if (segment == 0 && first) {
                    first = false;
                    try {
                        assertTrue(segment3Dialed.await(10, TimeUnit.SECONDS), "segment 3 never dialed");
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException();
                    }
                }
                return written.read(segment);
            }
        };
        RecordingClient client = new RecordingClient();
        Background run = new Background(Orderly.engine(config), Request.of(plan, tier2, store, client));
        try {
            // The re-run dials, succeeds and reaches the client while segments 1 and 2 still hold their room.
            await().atMost(Duration.ofSeconds(10)).until(
                    () -> dials.stream().anyMatch(j -> j.key().segment() == 0 && j.attempt() > 1));
            await().atMost(Duration.ofSeconds(10)).until(() -> client.segments().equals(List.of(0L)));
            assertFalse(run.isDone());
        } finally {
            release.countDown();
        }
        RequestResult result = run.get(10);
        assertEquals(Fixtures.range(0, 4), client.segments());
        assertEquals(1, result.reruns());
    }
}
