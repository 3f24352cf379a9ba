package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code awaitTurn} looked at the caller's interrupt before it looked for a second caller of the same key.
 * An interrupted thread that called it for a key another thread waited for, or for a key that held a dial slot, got
 * an {@code InterruptedException} instead of the documented {@code IllegalStateException}, and the queue dropped the
 * key's place on the way out: the thread that waited was never woken again, and a key still dialing no longer counted
 * against the window. A misuse of the public queue must be refused and change nothing, interrupted or not.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AnInterruptedSecondCallerOfAKeyIsRefusedTest {

    private static final EngineConfig NO_DELAYS =
            EngineConfig.builder().refusedDelay(Duration.ZERO).failureDelay(Duration.ZERO).build();

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void aKeyAnotherThreadWaitsForIsRefusedAndItsWaiterStillGetsItsTurn() throws Exception {
        LaunchQueue queue = new LaunchQueue(10, NO_DELAYS); // window 2
        queue.awaitTurn(new JobKey(0, 0));
        queue.awaitTurn(new JobKey(1, 0)); // the window's two slots taken
        queue.refused(new JobKey(9, 0)); // queued: from now on a job joins the queue, and waits for a slot
        JobKey key = new JobKey(5, 0);
        TurnWaiter first = TurnWaiter.start(queue, key);
        try {
            first.awaitWaiting(queue, LaunchBook.Wait.PARKED, Duration.ofSeconds(10));

            CompletableFuture<Throwable> second = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                Thread.currentThread().interrupt();
                try {
                    queue.awaitTurn(key);
                    second.complete(null);
                } catch (Throwable t) {
                    second.complete(t);
                }
            });
            Throwable refused = second.get(10, TimeUnit.SECONDS);
            assertTrue(refused instanceof IllegalStateException, () -> "the second caller got " + refused);
            assertEquals(2, queue.size(), "the first caller keeps its place");
            assertEquals(LaunchBook.Wait.PARKED, queue.waitState(key));

            queue.leave(new JobKey(0, 0));
            assertTrue(first.awaitEnd(10_000), "the first caller gets its turn once a slot is free");
            assertTrue(first.passed(), () -> "the first caller threw " + first.failure());
        } finally {
            first.interrupt();
        }
    }

    @Test
    void aKeyThatDialsFromTheQueueIsRefusedAndKeepsItsSlot() throws Exception {
        LaunchQueue queue = new LaunchQueue(10, NO_DELAYS);
        JobKey key = new JobKey(1, 0);
        queue.awaitTurn(key);
        queue.refused(key); // queued again, no delay
        queue.awaitTurn(key); // dials from its place in the queue
        assertEquals(1, queue.stats().dialing());

        Thread.currentThread().interrupt();
        assertThrows(IllegalStateException.class, () -> queue.awaitTurn(key));
        assertTrue(Thread.interrupted(), "the refusal leaves the caller's interrupt where it was");
        assertEquals(1, queue.stats().dialing(), "the key still dials: its slot still counts");
        assertEquals(1, queue.size());
    }

    @Test
    void aKeyThatDialsWithNothingQueuedIsRefused() throws Exception {
        LaunchQueue queue = new LaunchQueue(10, NO_DELAYS);
        JobKey key = new JobKey(1, 0);
        queue.awaitTurn(key); // nothing queued: dials at once, never joins
        assertEquals(1, queue.stats().dialing());

        Thread.currentThread().interrupt();
        assertThrows(IllegalStateException.class, () -> queue.awaitTurn(key));
        assertTrue(Thread.interrupted(), "the refusal leaves the caller's interrupt where it was");
        assertEquals(1, queue.stats().dialing());
        queue.leave(key);
        assertEquals(0, queue.stats().dialing());
    }
}
