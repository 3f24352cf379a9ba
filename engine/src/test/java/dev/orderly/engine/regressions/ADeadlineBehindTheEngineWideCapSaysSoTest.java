package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Background;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.time.Duration;
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
}
