package dev.orderly.engine;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.orderly.api.JobKey;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/** Runs one {@code awaitTurn} on its own virtual thread and records how it ended. */
final class TurnWaiter {

    final JobKey key;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;

    private TurnWaiter(LaunchQueue queue, JobKey key) {
        this.key = key;
        this.thread = Thread.ofVirtual().name("waiter-" + key).start(() -> {
            try {
                queue.awaitTurn(key);
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                ended.countDown();
            }
        });
    }

    static TurnWaiter start(LaunchQueue queue, JobKey key) {
        return new TurnWaiter(queue, key);
    }

    /** True when awaitTurn returned normally. */
    boolean passed() {
        return ended.getCount() == 0 && failure.get() == null;
    }

    boolean ended() {
        return ended.getCount() == 0;
    }

    /** Waits up to {@code millis} for awaitTurn to end; true if it did. */
    boolean awaitEnd(long millis) throws InterruptedException {
        return ended.await(millis, TimeUnit.MILLISECONDS);
    }

    Throwable failure() {
        return failure.get();
    }

    void interrupt() {
        thread.interrupt();
    }

    Thread thread() {
        return thread;
    }

    /**
     * Waits until the call waits for its turn in the given way: its thread blocked on its own job's condition of
     * {@code queue} (not running, not queueing for the lock), untimed for {@code PARKED} and timed for {@code TIMED},
     * and the queue's own record agreeing. That is exact, not a guess from silence: such a thread moves only when the
     * queue signals it, or, timed, when its not-before time comes. Fails at once if the call ended instead, and after
     * {@code atMost} if the thread never waits that way.
     */
    void awaitWaiting(LaunchQueue queue, LaunchBook.Wait wait, Duration atMost) {
        Thread.State state = wait == LaunchBook.Wait.TIMED ? Thread.State.TIMED_WAITING : Thread.State.WAITING;
        await(key + " " + wait).atMost(atMost).until(() -> ended() || (thread.getState() == state
                && LockSupport.getBlocker(thread) == queue.turnOf(key) && queue.waitState(key) == wait));
        assertFalse(ended(), () -> key + " got its turn (or threw " + failure() + ")");
    }
}
