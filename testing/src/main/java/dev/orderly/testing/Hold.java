package dev.orderly.testing;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Keeps admitted jobs running until the test releases them: a job scripted with {@link Script#hold(Hold)} blocks in
 * {@code await()} until {@link #release()} (then it succeeds), or until its call is closed or its thread is
 * interrupted (the engine cancelled it). One hold may keep many jobs; a released hold lets every later job through
 * at once.
 *
 * <p>Invariants: {@code released} only goes from false to true; {@code waiting} is the number of threads inside
 * {@link #await()}; both are guarded by {@code lock}. This class is thread-safe.
 */
public final class Hold {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition releasedCondition = lock.newCondition();
    // guarded by lock
    private boolean released;
    // guarded by lock
    private int waiting;

    /** A hold that is not released. */
    public Hold() {
    }

    /** Lets every job kept by this hold, now and later, go on. Idempotent. */
    public void release() {
        lock.lock();
        try {
            released = true;
            releasedCondition.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every job this hold keeps to look at its own stop condition again; releases nothing. */
    void wake() {
        lock.lock();
        try {
            releasedCondition.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@link #release()} was called. */
    public boolean isReleased() {
        lock.lock();
        try {
            return released;
        } finally {
            lock.unlock();
        }
    }

    /** How many jobs this hold keeps right now. */
    public int waiting() {
        lock.lock();
        try {
            return waiting;
        } finally {
            lock.unlock();
        }
    }

    /** Blocks until released; throws if the thread is interrupted first. */
    void await() throws InterruptedException {
        await(() -> false);
    }

    /**
     * Blocks until released, or until {@code stop} is true when this hold is {@link #wake() woken} (a call closed
     * under its job); throws if the thread is interrupted first.
     */
    void await(BooleanSupplier stop) throws InterruptedException {
        lock.lock();
        try {
            waiting++;
            try {
                while (!released && !stop.getAsBoolean()) {
                    releasedCondition.await();
                }
            } finally {
                waiting--;
            }
        } finally {
            lock.unlock();
        }
    }
}
