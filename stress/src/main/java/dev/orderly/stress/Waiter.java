package dev.orderly.stress;

import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchQueue;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * One call of {@link LaunchQueue#awaitTurn} on its own virtual thread, so that a jcstress actor never blocks forever:
 * the actor (or arbiter) that collects the outcome waits at most {@link #PATIENCE}, and a call still waiting then is
 * reported as {@link #NEVER_WOKE} — a forbidden outcome in every test — and interrupted so that its thread ends.
 *
 * <p>A wake-up takes microseconds; the patience is five seconds, so only a lost wake-up, never machine noise, can
 * produce {@code NEVER_WOKE}.
 */
public final class Waiter {

    /** How long the collector waits for {@code awaitTurn} to return or throw. */
    public static final Duration PATIENCE = Duration.ofSeconds(5);

    /** {@code awaitTurn} returned; the outcome when no after-turn action is given. */
    public static final int PASSED = 1;
    /** {@code awaitTurn} was still waiting after {@link #PATIENCE}: a lost wake-up. */
    public static final int NEVER_WOKE = -1;
    /** {@code awaitTurn} threw {@link InterruptedException}. */
    public static final int INTERRUPTED = -2;
    /** {@code awaitTurn} or the after-turn action threw something else. */
    public static final int THREW = -3;

    private final Thread thread;
    private volatile int outcome = NEVER_WOKE;

    private Waiter(LaunchQueue queue, JobKey key, IntSupplier afterTurn) {
        thread = Thread.ofVirtual().name("waiter-" + key).unstarted(() -> {
            try {
                queue.awaitTurn(key);
                outcome = afterTurn.getAsInt();
            } catch (InterruptedException e) {
                outcome = INTERRUPTED;
            } catch (RuntimeException e) {
                outcome = THREW;
            }
        });
    }

    /** Starts {@code awaitTurn(key)}; the outcome is {@link #PASSED} when it returns. */
    public static Waiter start(LaunchQueue queue, JobKey key) {
        return start(queue, key, () -> PASSED);
    }

    /** Starts {@code awaitTurn(key)} followed, once it returns, by {@code afterTurn}, whose result is the outcome. */
    public static Waiter start(LaunchQueue queue, JobKey key, IntSupplier afterTurn) {
        Waiter waiter = new Waiter(queue, key, afterTurn);
        waiter.thread.start();
        return waiter;
    }

    /** The virtual thread that waits, e.g. to interrupt it. */
    public Thread thread() {
        return thread;
    }

    /**
     * Waits at most {@link #PATIENCE} for the call to end and returns its outcome; {@link #NEVER_WOKE} if it did not
     * end, after interrupting it so that it does.
     */
    public int await() {
        return endsWithinPatience(thread) ? outcome : NEVER_WOKE;
    }

    /**
     * Waits at most {@link #PATIENCE} for {@code thread} to end; true if it did. If it did not (or this thread was
     * interrupted meanwhile, its flag then restored), interrupts it so that it does, and returns false.
     */
    public static boolean endsWithinPatience(Thread thread) {
        try {
            if (thread.join(PATIENCE)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread.interrupt();
        return false;
    }

    /**
     * Waits (at most {@link #PATIENCE}) until the call is parked on its job's condition, i.e. really waiting for its
     * turn, not merely started or queueing for the lock. Returns false if it never got there (it may have returned).
     */
    public boolean awaitParked() {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (thread.getState() == Thread.State.TERMINATED) {
                return false;
            }
            if (isParked()) {
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }

    /** True while the call is parked on its job's condition (not running, not queueing for the lock). */
    public boolean isParked() {
        Thread.State state = thread.getState();
        return (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
                && LockSupport.getBlocker(thread) instanceof Condition;
    }

    /** True once the call has ended, whatever its outcome. */
    public boolean hasEnded() {
        return thread.getState() == Thread.State.TERMINATED;
    }
}
