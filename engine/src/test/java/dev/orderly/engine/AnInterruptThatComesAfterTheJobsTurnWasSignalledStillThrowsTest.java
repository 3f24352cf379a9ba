package dev.orderly.engine;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchBook.Wait;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LaunchQueue#awaitTurn}: "@throws InterruptedException if the thread is interrupted before or while it
 * waits; the job is then no longer queued". A thread interrupted while it waited, just after the signal that let its
 * job dial and before it had the lock back, returned normally holding a dial slot, its interrupt status set: its job
 * was still queued and held the slot. ({@code Condition.await} favours a signal over an interrupt that comes after
 * it, and only sets the interrupt status.)
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnInterruptThatComesAfterTheJobsTurnWasSignalledStillThrowsTest {

    @Test
    void theInterruptedWaiterThrowsAndHoldsNothing() throws Exception {
        LaunchQueue queue = new LaunchQueue(10, EngineConfig.builder().refusedDelay(Duration.ofHours(1)).build());
        JobKey key = new JobKey(1, 0);
        queue.awaitTurn(key); // nothing queued: it dials at once
        queue.refused(key); // queued, refused an hour
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> interruptStatus = new AtomicReference<>();
        CountDownLatch ended = new CountDownLatch(1);
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                queue.awaitTurn(key);
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                interruptStatus.set(Thread.currentThread().isInterrupted());
                ended.countDown();
            }
        });
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> queue.waitState(key) == Wait.TIMED);
            // A freed slot ends its refused delay (a signal), and the interrupt comes while the waiter is still waiting
            // for the lock this thread holds.
            queue.whileLocked(() -> {
                assertTrue(queue.stats().queued() == 1);
                queue.slotFreed();
                waiter.interrupt();
            });
            assertTrue(ended.await(10, TimeUnit.SECONDS), "awaitTurn did not end");
            assertInstanceOf(InterruptedException.class, thrown.get(),
                    "an interrupted waiter's awaitTurn returned (interrupt status " + interruptStatus.get()
                            + ", queued " + queue.snapshot() + ", dialing " + queue.stats().dialing() + ")");
            assertEquals(List.of(), queue.snapshot(), "the job is no longer queued");
            assertEquals(0, queue.stats().dialing(), "and holds no dial slot");
        } finally {
            waiter.interrupt();
            waiter.join(Duration.ofSeconds(10));
        }
    }

    @Test
    void theEarlyTurnItDidNotUseGoesToTheNextRefusedJob() throws Exception {
        LaunchQueue queue = new LaunchQueue(10, EngineConfig.builder().refusedDelay(Duration.ofHours(1)).build());
        JobKey first = new JobKey(1, 0);
        JobKey second = new JobKey(2, 0);
        for (JobKey key : List.of(first, second)) {
            queue.awaitTurn(key);
            queue.refused(key); // queued, refused an hour
        }
        CountDownLatch firstEnded = new CountDownLatch(1);
        CountDownLatch secondDials = new CountDownLatch(1);
        Thread firstWaiter = Thread.ofVirtual().start(() -> {
            try {
                queue.awaitTurn(first);
            } catch (InterruptedException expected) {
                // the interrupt that came after the early turn's signal
            } finally {
                firstEnded.countDown();
            }
        });
        Thread secondWaiter = Thread.ofVirtual().start(() -> {
            try {
                queue.awaitTurn(second);
                secondDials.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> queue.waitState(first) == Wait.TIMED
                    && queue.waitState(second) == Wait.TIMED);
            // A freed slot's early turn goes to the first refused job, whose thread is then interrupted before it
            // has the lock back: the turn it did not use is the second refused job's, not an hour away.
            queue.whileLocked(() -> {
                queue.slotFreed();
                firstWaiter.interrupt();
            });
            assertTrue(firstEnded.await(10, TimeUnit.SECONDS), "the first waiter did not end");
            assertTrue(secondDials.await(10, TimeUnit.SECONDS),
                    "the early turn was lost: the second refused job still waits out its hour, queued "
                            + queue.snapshot());
        } finally {
            firstWaiter.interrupt();
            secondWaiter.interrupt();
            firstWaiter.join(Duration.ofSeconds(10));
            secondWaiter.join(Duration.ofSeconds(10));
        }
    }
}
