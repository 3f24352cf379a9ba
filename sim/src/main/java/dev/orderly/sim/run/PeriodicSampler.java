package dev.orderly.sim.run;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs a task every {@code period} on a virtual thread until {@link #stop()}, which runs it one last time and
 * returns only after the thread has ended. The wait between ticks is a timed {@link Condition} wait, so
 * {@code stop} ends it at once instead of after a full period.
 *
 * <p>Invariant: {@code stopped} (guarded by {@code lock}) goes from false to true once; the thread checks it after
 * every wake-up, so a stop signalled before the thread waits is not lost.
 */
final class PeriodicSampler {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition stopping = lock.newCondition();
    private final Runnable task;
    private final long periodNanos;
    private final Thread thread;
    // guarded by lock
    private boolean stopped;

    PeriodicSampler(String name, Duration period, Runnable task) {
        this.task = task;
        this.periodNanos = period.toNanos();
        this.thread = Thread.ofVirtual().name(name).unstarted(this::loop);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        lock.lock();
        try {
            while (!stopped) {
                long left = periodNanos;
                while (!stopped && left > 0) {
                    left = stopping.awaitNanos(left);
                }
                if (!stopped) {
                    lock.unlock();
                    try {
                        task.run();
                    } finally {
                        lock.lock();
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    /** Stops the ticks, waits for the thread to end, and runs the task one last time on the caller's thread. */
    void stop() throws InterruptedException {
        lock.lock();
        try {
            stopped = true;
            stopping.signalAll();
        } finally {
            lock.unlock();
        }
        thread.join();
        task.run();
    }
}
