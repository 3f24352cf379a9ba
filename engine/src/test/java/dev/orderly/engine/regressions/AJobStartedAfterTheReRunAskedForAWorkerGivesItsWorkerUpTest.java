package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.internal.OrderlyEngine;
import dev.orderly.engine.testlog.LogCapture;
import dev.orderly.testing.ScriptedTier2;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The re-run of the client's segment, with every worker taken, has the highest job that is not on a tier2 give its
 * worker up; if none can (every registered job is on a tier2), the first job to come off its tier2 to wait does. A job
 * handed out just before the re-run and not yet started (its thread made, not yet registered) was neither: nobody
 * withdrew it, and it dialed and ran while the client waited for the re-run behind it.
 *
 * <p>Plan 0..3, one stage, 2 workers. Segment 0's first job writes no output; segment 1 holds its call until the end.
 * The owner is held in the fork of segment 2's job (the engine's thread hook) until the walker has found segment 0
 * missing and asked for a worker; segment 2 then holds its call too. The re-run must reach the client all the same.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AJobStartedAfterTheReRunAskedForAWorkerGivesItsWorkerUpTest {

    @Test
    void theReRunDoesNotWaitBehindAJobThatStartsAfterItAskedForAWorker() throws Throwable {
        RequestPlan plan = new RequestPlan(0, 4, 1, 2);
        InMemoryOutputStore written = new InMemoryOutputStore();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch segment1OnItsTier2 = new CountDownLatch(1);
        CountDownLatch ownerHeldInAFork = new CountDownLatch(1);
        AtomicBoolean holdTheNextFork = new AtomicBoolean();
        Tier2Client tier2 = job -> new Tier2Call() {
            @Override
            public void await() throws InterruptedException {
                long segment = job.key().segment();
                if (segment == 0 && job.attempt() == 1) {
                    // Its end frees the worker that segment 2's job is handed out on: hold that fork. Not before
                    // segment 1 is on its tier2: on a slow machine the owner may not have forked segment 1's job yet,
                    // and the next fork would be that one.
                    assertTrue(segment1OnItsTier2.await(10, TimeUnit.SECONDS), "segment 1 never got in");
                    holdTheNextFork.set(true);
                    return;
                }
                if (segment == 1) {
                    segment1OnItsTier2.countDown();
                }
                if (segment == 1 || segment == 2) {
                    release.await();
                }
                written.write(segment, ScriptedTier2.outputOf(segment));
            }
        };
        // The walker reads segment 0 (missing) once segment 1 is on its tier2 and segment 2 is handed out.
        OutputStore store = new OutputStore() {
            private boolean first = true;

            @Override
            public Optional<byte[]> read(long segment) throws InterruptedIOException {
                if (segment == 0 && first) {
                    first = false;
                    try {
                        assertTrue(segment1OnItsTier2.await(10, TimeUnit.SECONDS), "segment 1 never got in");
                        assertTrue(ownerHeldInAFork.await(10, TimeUnit.SECONDS), "segment 2 was never forked");
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException();
                    }
                }
                return written.read(segment);
            }
        };
        // Segment 2's thread starts only once the walker has asked for a worker for the re-run and found none.
        Consumer<Thread> threadHook = thread -> {
            if (holdTheNextFork.compareAndSet(true, false)) {
                ownerHeldInAFork.countDown();
                await().atMost(Duration.ofSeconds(10)).until(() -> LogCapture.snapshot().stream()
                        .anyMatch(event -> event.message().contains("re-run with every worker taken")));
            }
        };
        RecordingClient client = new RecordingClient();
        LogCapture.start();
        Background run = new Background(new OrderlyEngine(Fixtures.fast(), threadHook),
                Request.of(plan, tier2, store, client));
        try {
            // Segments 1 and 2 hold their workers until the re-run of segment 0 has reached the client.
            await().atMost(Duration.ofSeconds(10)).until(() -> client.segments().equals(List.of(0L)));
            assertFalse(run.isDone());
        } finally {
            release.countDown();
            LogCapture.stop();
        }
        RequestResult result = run.get(10);
        assertEquals(Fixtures.range(0, 4), client.segments());
        assertEquals(1, result.reruns());
    }
}
