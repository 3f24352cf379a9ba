package dev.orderly.engine;

import dev.orderly.api.JobKey;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

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
}
