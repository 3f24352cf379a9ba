package dev.orderly.bench.queue;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The baseline must be a working queue, or comparing against it means nothing. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PollingLaunchQueueTest {

    private static final Duration POLL = Duration.ofMillis(20);
    private static final EngineConfig WINDOW_OF_ONE = EngineConfig.builder()
            .launchWindowMin(1).launchWindowMax(1).refusedDelay(POLL).build();

    @Test
    void jobWithNothingQueuedGetsItsTurnAtOnceAndLeavesNothingBehind() throws InterruptedException {
        PollingLaunchQueue queue = new PollingLaunchQueue(10, EngineConfig.defaults());
        JobKey key = new JobKey(0, 0);

        queue.awaitTurn(key);
        assertEquals(1, queue.stats().dialing());
        queue.leave(key);

        assertEquals(0, queue.size());
        assertEquals(0, queue.stats().dialing());
        assertEquals(0, queue.stats().wakeUps());
    }

    @Test
    void jobOutsideTheWindowKeepsPollingUntilTheJobAheadLeaves() throws Exception {
        PollingLaunchQueue queue = new PollingLaunchQueue(1, WINDOW_OF_ONE);
        JobKey head = new JobKey(0, 0);
        JobKey next = new JobKey(1, 0);
        queue.refused(head);

        CompletableFuture<Void> turn = CompletableFuture.runAsync(() -> awaitTurn(queue, next),
                command -> Thread.ofVirtual().start(command));
        // Polling every 20 ms, it re-checks (and finds itself outside the window) several times.
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.stats().wakeUpsOutsideWindow() >= 3);
        assertFalse(turn.isDone(), "a job behind a full window must not get its turn");

        queue.leave(head);
        turn.get(10, TimeUnit.SECONDS);
        assertEquals(1, queue.stats().dialing());
        assertEquals(1, queue.size());
    }

    @Test
    void interruptedWaiterThrowsAndLeavesNoEntryBehind() throws Exception {
        PollingLaunchQueue queue = new PollingLaunchQueue(1, WINDOW_OF_ONE);
        queue.refused(new JobKey(0, 0));
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                queue.awaitTurn(new JobKey(1, 0));
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.size() == 2);

        waiter.interrupt();

        assertInstanceOf(InterruptedException.class, outcome.get(10, TimeUnit.SECONDS));
        assertTrue(waiter.join(Duration.ofSeconds(10)));
        assertEquals(1, queue.size());
    }

    private static void awaitTurn(PollingLaunchQueue queue, JobKey key) {
        try {
            queue.awaitTurn(key);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
