package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Background;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found: a request that passed its deadline waiting for a place under the engine-wide job cap (every place held by
 * another request's job) said only "segment 0 waiting for stage 0, 0 refusals", which sends whoever reads it to the
 * fleet; nothing had been dialed. It now says the unit could launch but no place was free under the cap.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ADeadlineBehindTheEngineWideCapSaysSoTest {

    @Test
    void theDeadlineNamesTheEngineWideCap() throws Exception {
        Engine engine = Orderly.engine(EngineConfig.builder().maxConcurrentJobs(1).build());
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch placeTaken = new CountDownLatch(1);
        // The cap's one place: a job that runs until its request is cancelled.
        Tier2Client runsUntilCancelled = job -> new Tier2Call() {
            @Override
            public void await() throws InterruptedException {
                placeTaken.countDown();
                new CountDownLatch(1).await();
            }
        };
        Background holder = new Background(engine, Request.of(new RequestPlan(0, 3, 1, 1), runsUntilCancelled, store,
                (segment, output) -> { }).withId("holder"));
        try {
            assertTrue(placeTaken.await(10, TimeUnit.SECONDS), "the holder's job never got in");
            Tier2Client neverAsked = job -> {
                throw new AssertionError("dialed without a place under the cap: " + job);
            };
            Background waiter = new Background(engine, Request.of(new RequestPlan(0, 3, 1, 1), neverAsked, store,
                    (segment, output) -> { }).withId("waiter").withDeadline(Duration.ofMillis(200)));

            RequestFailedException e = assertInstanceOf(RequestFailedException.class, waiter.failure(10));
            assertTrue(e.getMessage().startsWith("request waiter passed its deadline of 200ms: 0 of 3 segments"
                    + " delivered, segment 0 waiting for stage 0, launchable, but no place free under the engine-wide"
                    + " job cap of 1 (maxConcurrentJobs), 0 refusals"), e.getMessage());
        } finally {
            holder.interrupt();
            holder.failure(10);
        }
    }

    /**
     * The other side of the same message: the client's re-run, with the request's one worker held by a later segment's
     * job, waits for that worker, not for the cap, though the cap is full too (by that same job); the cap is not named.
     */
    @Test
    void aReRunWithNoWorkerFreeDoesNotBlameTheCap() throws Exception {
        Engine engine = Orderly.engine(EngineConfig.builder().maxConcurrentJobs(1).build());
        CountDownLatch laterSegmentIn = new CountDownLatch(1);
        // Segment 0's first job ends with no output; every other job runs until the request is cancelled.
        Tier2Client client = job -> new Tier2Call() {
            @Override
            public void await() throws InterruptedException {
                if (job.key().segment() == 0 && job.attempt() == 1) {
                    return;
                }
                if (job.key().segment() == 1) {
                    laterSegmentIn.countDown();
                }
                new CountDownLatch(1).await();
            }
        };
        // No job writes an output: segment 0 is found missing, and only once segment 1's job holds the worker, so the
        // re-run then waits for that worker.
        OutputStore outputs = segment -> {
            try {
                laterSegmentIn.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted");
            }
            return Optional.empty();
        };
        Background request = new Background(engine, Request.of(new RequestPlan(0, 3, 1, 1), client, outputs,
                (segment, output) -> { }).withId("busy").withDeadline(Duration.ofMillis(300)));

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, request.failure(10));
        assertTrue(e.getMessage().startsWith("request busy passed its deadline of 300ms: 0 of 3 segments delivered,"
                + " segment 0 waiting for stage 0, "), e.getMessage());
        assertFalse(e.getMessage().contains("job cap"), e.getMessage());
    }
}
