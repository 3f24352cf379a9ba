package dev.orderly.bench.queue;

import dev.orderly.api.JobKey;
import dev.orderly.engine.DialGate;
import dev.orderly.engine.LaunchQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * N jobs waiting outside the window of a queue, each on its own virtual thread, for the benchmarks that measure
 * what waiting costs and what cancelling it costs.
 *
 * <p>{@link #start} first queues {@code window} blocker jobs (through {@code refused}, with no thread behind them, so
 * they hold the window and never dial), then starts one thread per waiter with keys that sort behind the blockers,
 * and returns once every waiter has joined the queue. Not thread-safe: one benchmark thread drives it.
 */
public final class Waiters {

    private static final Duration PATIENCE = Duration.ofMinutes(2);

    private final QueueKind kind;
    private final DialGate queue;
    private final List<Thread> threads;
    private final AtomicReference<Throwable> unexpected = new AtomicReference<>();

    private Waiters(QueueKind kind, DialGate queue, int count) {
        this.kind = kind;
        this.queue = queue;
        this.threads = new ArrayList<>(count);
    }

    /**
     * Fills the window of {@code queue} (which must be empty, and made by {@code kind}) with blockers and starts
     * {@code count} waiters behind them; returns when all have joined and, for a queue whose waiters park without a
     * timeout, all are parked.
     */
    public static Waiters start(QueueKind kind, DialGate queue, int count) {
        int queued = kind.stats(queue).queued();
        if (queued != 0) {
            throw new IllegalStateException("queue must be empty, has " + queued);
        }
        int window = kind.windowSize(queue);
        for (int i = 0; i < window; i++) {
            queue.refused(new JobKey(i, 0));
        }
        Waiters waiters = new Waiters(kind, queue, count);
        for (int i = 0; i < count; i++) {
            JobKey key = new JobKey(window + i, 0);
            waiters.threads.add(Thread.ofVirtual().name("waiter-" + i).start(() -> waiters.await(key)));
        }
        waiters.awaitAllJoined(window + count);
        return waiters;
    }

    private void await(JobKey key) {
        try {
            queue.awaitTurn(key);
            unexpected.compareAndSet(null, new AssertionError(key + " got a turn behind a full window"));
        } catch (InterruptedException e) {
            // The cancellation these threads exist for: end the thread.
        } catch (Throwable t) {
            unexpected.compareAndSet(null, t);
        }
    }

    private void awaitAllJoined(int expectedSize) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        boolean parksUntimed = queue instanceof LaunchQueue;
        while (size() < expectedSize || (parksUntimed && !allParked())) {
            check();
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("waiters did not join within " + PATIENCE + ": queue has "
                        + size() + " of " + expectedSize);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    private boolean allParked() {
        for (Thread t : threads) {
            if (t.getState() != Thread.State.WAITING) {
                return false;
            }
        }
        return true;
    }

    /** Interrupts every waiter and returns when all their threads have ended; the queue then holds only blockers. */
    public void cancelAll() throws InterruptedException {
        for (Thread t : threads) {
            t.interrupt();
        }
        for (Thread t : threads) {
            if (!t.join(PATIENCE)) {
                throw new IllegalStateException(t + " did not end within " + PATIENCE + " of its interrupt");
            }
        }
        check();
        int left = size() - kind.windowSize(queue);
        if (left != 0) {
            throw new IllegalStateException(left + " cancelled waiters are still queued");
        }
    }

    private int size() {
        return kind.stats(queue).queued();
    }

    /** Throws if a waiter failed or got a turn it should not have had. */
    public void check() {
        Throwable t = unexpected.get();
        if (t != null) {
            throw new IllegalStateException("a waiter failed: " + t, t);
        }
    }

    /** The number of waiters. */
    public int count() {
        return threads.size();
    }
}
