package dev.orderly.engine.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Bounds the output walker's reads of the {@code OutputStore} by the request's deadline: if the deadline passes while
 * the walker is inside a read, the walker's thread is interrupted, so a store that answers interrupts (an
 * {@code InterruptedIOException}, a closed channel) lets the request fail at its deadline. A store whose read
 * ignores interrupts can still hold the request until the read returns.
 *
 * <p>One virtual thread per request with a deadline, started at the walker's first read and ended (and joined) by
 * {@link #close()} when the walker ends, so it never outlives the request. It waits on a condition until the deadline
 * or its close, never polling.
 *
 * <p>Guarded by {@code lock}: {@code reading} (the walker is inside a read), {@code fired} (the deadline passed during
 * the current read, and the walker was interrupted for it), {@code closed}. The alarm interrupts the walker only while
 * {@code reading}, under the lock, so an interrupt it sends can never land outside a read. Thread-safe.
 */
final class StoreReadAlarm implements AutoCloseable {

    /**
     * The alarm of every request with no deadline: each of its methods returns before it touches any state, so one
     * instance serves every walker at once, and a request with no deadline makes no alarm, lock or name of its own.
     */
    private static final StoreReadAlarm NO_DEADLINE = new StoreReadAlarm(Deadline.after(null), "no deadline", null);

    private final Deadline deadline;
    private final Thread walker;
    private final String name;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition closing = lock.newCondition();
    @GuardedBy("lock")
    private boolean reading;
    @GuardedBy("lock")
    private boolean fired;
    @GuardedBy("lock")
    private boolean closed;
    // written and read by the walker only
    private Thread alarm;

    /** An alarm for the reads of {@code walker}, the calling thread; {@code name} names the alarm's thread. */
    StoreReadAlarm(Deadline deadline, String name) {
        this(deadline, name, Thread.currentThread());
    }

    private StoreReadAlarm(Deadline deadline, String name, Thread walker) {
        this.deadline = deadline;
        this.walker = walker;
        this.name = name;
    }

    /**
     * The alarm for the reads of the calling thread, the walker of request {@code requestId}: the shared one that does
     * nothing when {@code deadline} is not set.
     */
    static StoreReadAlarm forWalker(Deadline deadline, String requestId) {
        return deadline.isSet() ? new StoreReadAlarm(deadline, RequestScope.name(requestId) + "-deadline")
                : NO_DEADLINE;
    }

    /**
     * The walker starts a read; false if the deadline has passed already (then it must not read). A read it starts
     * is interrupted if the deadline passes before {@link #exitRead}.
     */
    boolean enterRead() {
        if (!deadline.isSet()) {
            return true;
        }
        if (deadline.remainingNanos() <= 0) {
            return false;
        }
        if (alarm == null) {
            alarm = Thread.ofVirtual().name(name).start(this::ring);
        }
        lock.lock();
        try {
            // Again under the lock, where the alarm decides: an alarm that woke at the deadline since the look above
            // found no read, rang for nobody and ended, and would never interrupt this one.
            if (deadline.remainingNanos() <= 0) {
                return false;
            }
            reading = true;
            fired = false;
        } finally {
            lock.unlock();
        }
        return true;
    }

    /**
     * The walker's read has ended. Returns whether the deadline passed during it; then the interrupt the alarm sent
     * is cleared from the walker's thread, and the walker fails the request at its deadline.
     */
    boolean exitRead() {
        if (!deadline.isSet()) {
            return false;
        }
        lock.lock();
        try {
            reading = false;
            if (fired) {
                Thread.interrupted();
            }
            return fired;
        } finally {
            lock.unlock();
        }
    }

    private void ring() {
        lock.lock();
        try {
            long remaining = deadline.remainingNanos();
            while (!closed && remaining > 0) {
                remaining = closing.awaitNanos(remaining);
                remaining = Math.min(remaining, deadline.remainingNanos());
            }
            if (!closed && reading) {
                fired = true;
                walker.interrupt();
            }
        } catch (InterruptedException e) {
            // Nothing interrupts the alarm but the JVM's end; it has nothing to hand the interrupt to.
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the alarm and waits for its thread, which ends at once: called by the walker as it ends. An interrupt
     * meanwhile (the request being cancelled) does not cut the wait short, so the alarm never outlives the request;
     * it is kept for the walker.
     */
    @Override
    public void close() {
        if (alarm == null) {
            return;
        }
        lock.lock();
        try {
            closed = true;
            closing.signal();
        } finally {
            lock.unlock();
        }
        boolean interrupted = false;
        while (true) {
            try {
                alarm.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
