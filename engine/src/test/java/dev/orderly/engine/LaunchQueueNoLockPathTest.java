package dev.orderly.engine;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The launch queue's no-queue path without its lock: with nothing queued, {@code awaitTurn} and the {@code leave} after
 * it take no lock, and the slots taken that way count against the window as soon as anything is queued.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LaunchQueueNoLockPathTest {

    private static final EngineConfig NO_DELAYS =
            EngineConfig.builder().refusedDelay(Duration.ZERO).failureDelay(Duration.ZERO).build();

    @Test
    void withNothingQueuedATurnAndALeaveTakeNoLock() {
        LaunchQueue queue = new LaunchQueue(10, NO_DELAYS);
        JobKey key = new JobKey(0, 0);
        CompletableFuture<Void> other = new CompletableFuture<>();
        queue.whileLocked(() -> {
            // Another thread takes its turn and leaves while this one holds the queue's lock.
            Thread.ofVirtual().start(() -> {
                try {
                    queue.awaitTurn(key);
                    queue.leave(key);
                    other.complete(null);
                } catch (Throwable t) {
                    other.completeExceptionally(t);
                }
            });
            try {
                other.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("the no-queue turn and leave waited for the lock", e);
            }
        });
        assertEquals(new LaunchQueue.Stats(0, 0, 0, 0), queue.stats());
    }

    @Test
    void anInterruptedThreadThrowsEvenWithNothingQueued() {
        LaunchQueue queue = new LaunchQueue(10, NO_DELAYS);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> queue.awaitTurn(new JobKey(0, 0)));
        assertFalse(Thread.interrupted(), "the interrupt is reported by the exception, not left set");
        assertEquals(0, queue.stats().dialing(), "the interrupted job holds no slot");
    }

    @Test
    void aKeyThatDialsAlreadyIsRejectedAndItsSecondSlotGivenBack() throws InterruptedException {
        LaunchQueue queue = new LaunchQueue(10, NO_DELAYS);
        JobKey key = new JobKey(3, 0);
        queue.awaitTurn(key);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> queue.awaitTurn(key));
        assertTrue(e.getMessage().contains("segment 3 stage 0"), e.getMessage());
        assertEquals(1, queue.stats().dialing(), "one slot, not two");
        queue.leave(key);
        assertEquals(0, queue.stats().dialing());
    }

    @Test
    void slotsTakenWithNoLockCountAgainstTheWindowOnceAJobIsQueued() throws InterruptedException {
        LaunchQueue queue = new LaunchQueue(10, NO_DELAYS); // window 2
        queue.awaitTurn(new JobKey(5, 0));
        queue.awaitTurn(new JobKey(6, 0));
        queue.refused(new JobKey(7, 0)); // queued now, not dialing
        assertEquals(new LaunchQueue.Stats(1, 2, 0, 0), queue.stats());

        // The window is full of the two no-queue slots: even a job ahead of the queued one must join.
        CompletableFuture<Void> ahead = CompletableFuture.runAsync(() -> {
            try {
                queue.awaitTurn(new JobKey(1, 0));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, r -> Thread.ofVirtual().start(r));
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.size() == 2);
        assertFalse(ahead.isDone(), "no slot is free while two no-queue jobs dial");
        assertEquals(List.of(new JobKey(1, 0), new JobKey(7, 0)), queue.snapshot());

        queue.leave(new JobKey(5, 0)); // a no-queue slot comes back under the lock, and wakes the head
        ahead.orTimeout(10, TimeUnit.SECONDS).join();
        assertEquals(new LaunchQueue.Stats(2, 2, 1, 0), queue.stats(), "it dials from its place, beside (6, 0)");
    }

    @Test
    void theNoQueueSlotsStayCountedWhenTheQueueEmptiesAgain() throws InterruptedException {
        LaunchQueue queue = new LaunchQueue(10, NO_DELAYS);
        queue.awaitTurn(new JobKey(5, 0));
        queue.refused(new JobKey(7, 0));
        queue.leave(new JobKey(7, 0)); // the queue is empty again
        assertEquals(new LaunchQueue.Stats(0, 1, 0, 0), queue.stats(), "the no-queue job still dials");
        queue.refused(new JobKey(5, 0)); // its refusal moves its slot back and gives it a place
        assertEquals(new LaunchQueue.Stats(1, 0, 0, 0), queue.stats());
        queue.awaitTurn(new JobKey(5, 0));
        assertEquals(new LaunchQueue.Stats(1, 1, 0, 0), queue.stats());
        queue.leave(new JobKey(5, 0));
        assertEquals(new LaunchQueue.Stats(0, 0, 0, 0), queue.stats());
    }
}
