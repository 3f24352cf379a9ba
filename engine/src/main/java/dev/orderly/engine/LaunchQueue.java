package dev.orderly.engine;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The per-request queue of jobs waiting to get to a tier2, in launch order, with a small dialing window.
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li>Queued jobs are kept in {@linkplain JobKey#compareTo launch order}: lowest segment first, then highest stage.
 *   <li>The <em>window</em> is the first {@link #windowSize()} queued jobs. Only a job inside the window may dial, and
 *       only once its not-before time has passed. A job outside the window sends nothing: its thread is parked on its
 *       own {@link Condition} with no timeout, costs no CPU, and is woken only when it enters the window.
 *   <li>At most {@code windowSize()} queued jobs are <em>dialing</em> at once (returned from {@link #awaitTurn} and
 *       not yet reported back through {@link #refused}, {@link #failed} or {@link #leave}). A late low job that sorts
 *       in front of a dialing one therefore waits for that dial to resolve instead of exceeding the window.
 *   <li><b>No queue, no wait:</b> {@code awaitTurn} of a job that is not queued, with nothing queued ahead of it,
 *       returns at once and the job does not join. A fleet with room is paced exactly as without the queue, and such a
 *       job is not counted against the window (it never joined).
 *   <li>{@code refused}: the job keeps (or takes) its place and may dial again {@code refusedDelay} later, or sooner:
 *       {@link #slotFreed} (a job of the request has just ended, so a slot is free on a tier2) lets the window's first
 *       refused job dial at once. Measured with short jobs on a full fleet, that slot otherwise idles or goes to
 *       another request. {@code failed}: like {@code refused} with {@code failureDelay}, which {@code slotFreed} does
 *       not shorten; while it waits it holds its place and window slot.
 *   <li>{@code leave}: the job is gone; idempotent. Call it the moment a tier2 takes the job, and again on every
 *       exit path.
 *   <li>Interrupting a waiting thread makes {@code awaitTurn} throw {@link InterruptedException} and removes the job.
 * </ul>
 *
 * <h2>Invariants (all guarded by {@code lock})</h2>
 * <ul>
 *   <li>{@code queued} holds one {@link Entry} per queued key, sorted in launch order.
 *   <li>{@code dialing} equals the number of entries whose {@code dialing} flag is set, and never exceeds the window.
 *   <li>An entry with {@code parked} set has a thread in an untimed {@code await} on its {@code turn}; every other
 *       waiting thread is in a timed wait for its not-before time, or already signalled.
 * </ul>
 *
 * <h2>Why no wake-up is lost, and why no herd</h2>
 * A parked thread can be allowed to dial by exactly three kinds of events: an entry in front of it leaves (it may
 * enter the window), a dialing entry reports back (a dial slot frees up), or the thread in front of it was woken but
 * can not use its turn. Each of these events ends in {@link #signalEligible()}, which walks only the first
 * {@code window} entries and signals the parked ones that may now move: every one with a future not-before (it just
 * entered the window and will start its timed wait) and, of those ready to dial, as many as there are free dial slots.
 * A woken thread that finds it can not dial passes the baton with {@code signalEligible()} before it parks again.
 * Entries outside the window are never signalled, so a refused head costs its followers nothing.
 *
 * <p>Cost: the no-queue path takes the lock once. Joining and leaving are {@code O(log n + window)}. A waiting job
 * outside the window costs no CPU.
 *
 * <p>This class is thread-safe. One live job per key: a key has at most one thread in {@code awaitTurn}.
 */
public final class LaunchQueue {

    private final ReentrantLock lock = new ReentrantLock();
    private final int window;
    private final long refusedDelayNanos;
    private final long failureDelayNanos;
    private final Consumer<? super JobKey> onJoin;

    // guarded by lock
    private final TreeMap<JobKey, Entry> queued = new TreeMap<>();
    // guarded by lock
    private int dialing;
    // guarded by lock
    private long wakeUps;
    // guarded by lock
    private long wakeUpsOutsideWindow;

    /** One queued job. Every field is guarded by the queue's lock. */
    private static final class Entry {
        final JobKey key;
        final Condition turn;
        long notBeforeNanos;
        boolean dialing;
        Thread waiter;
        boolean parked;
        /** Its not-before is a refused delay: it was refused for want of a slot, not failed. */
        boolean refusedWait;

        Entry(JobKey key, Condition turn, long notBeforeNanos) {
            this.key = key;
            this.turn = turn;
            this.notBeforeNanos = notBeforeNanos;
        }
    }

    /**
     * A queue for one request of {@code workers} workers.
     *
     * @throws IllegalArgumentException if {@code workers < 1}
     * @throws NullPointerException if {@code config} is null
     */
    public LaunchQueue(int workers, EngineConfig config) {
        this(workers, config, key -> { });
    }

    /**
     * A queue that also reports each job that joins it (to wait for its turn, or after a refusal or failure of a job
     * that was not queued). {@code onJoin} runs on the joining thread, outside the queue's lock.
     *
     * @throws IllegalArgumentException if {@code workers < 1}
     * @throws NullPointerException if {@code config} or {@code onJoin} is null
     */
    public LaunchQueue(int workers, EngineConfig config, Consumer<? super JobKey> onJoin) {
        this.window = windowSize(workers, config);
        this.refusedDelayNanos = config.refusedDelay().toNanos();
        this.failureDelayNanos = config.failureDelay().toNanos();
        this.onJoin = Objects.requireNonNull(onJoin, "onJoin");
    }

    /**
     * The window for {@code workers} workers: {@code clamp(workers * launchWindowPercent / 100, launchWindowMin,
     * launchWindowMax)} with integer division. With the defaults: 10 workers give 2, 50 give 10, 200 give 15, 1 gives 2.
     *
     * @throws IllegalArgumentException if {@code workers < 1}
     * @throws NullPointerException if {@code config} is null
     */
    public static int windowSize(int workers, EngineConfig config) {
        Objects.requireNonNull(config, "config");
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be >= 1, was " + workers);
        }
        long share = (long) workers * config.launchWindowPercent() / 100;
        return (int) Math.clamp(share, config.launchWindowMin(), config.launchWindowMax());
    }

    /** The number of queued jobs that may dial at once. */
    public int windowSize() {
        return window;
    }

    /**
     * Waits until the job of {@code key} may dial.
     *
     * <p>A job that is not queued, with nothing queued ahead of it, returns at once and does not join. Otherwise the
     * job joins at its place (or keeps the place it has) and waits until it is inside the window, its not-before time
     * has passed, and a dial slot is free. When it returns, the job holds a dial slot until it reports back with
     * {@link #refused}, {@link #failed} or {@link #leave}. If another thread calls {@code leave(key)} while this
     * thread waits, this method returns: nothing holds the job back any more.
     *
     * @throws InterruptedException if the thread is interrupted before or while it waits; the job is then no longer
     *     queued, and the wake-up it may have received is passed on
     * @throws IllegalStateException if another thread waits for the same key, or the key holds a dial slot already
     */
    public void awaitTurn(JobKey key) throws InterruptedException {
        Objects.requireNonNull(key, "key");
        boolean joined = false;
        lock.lock();
        try {
            Entry entry = queued.get(key);
            if (Thread.interrupted()) {
                if (entry != null) {
                    remove(entry);
                }
                throw new InterruptedException();
            }
            if (entry == null) {
                if (queued.isEmpty() || queued.firstKey().compareTo(key) > 0) {
                    return;
                }
                entry = join(key, System.nanoTime());
                joined = true;
            } else if (entry.waiter != null) {
                throw new IllegalStateException(key + " already has a thread waiting for its turn");
            } else if (entry.dialing) {
                throw new IllegalStateException(key + " is dialing already; report refused, failed or leave first");
            }
        } finally {
            lock.unlock();
        }
        if (joined) {
            onJoin.accept(key);
        }
        lock.lock();
        try {
            Entry entry = queued.get(key);
            if (entry == null) {
                return;
            }
            entry.waiter = Thread.currentThread();
            try {
                waitForTurn(entry);
            } catch (InterruptedException e) {
                if (queued.get(key) == entry) {
                    remove(entry);
                }
                throw e;
            } finally {
                entry.waiter = null;
                entry.parked = false;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits on {@code entry.turn} until the job may dial, then takes a dial slot. Lock held. */
    private void waitForTurn(Entry entry) throws InterruptedException {
        boolean woken = false;
        while (queued.get(entry.key) == entry) {
            boolean inWindow = isInWindow(entry);
            if (woken) {
                wakeUps++;
                if (!inWindow) {
                    wakeUpsOutsideWindow++;
                }
            }
            long wait = entry.notBeforeNanos - System.nanoTime();
            if (inWindow && wait > 0) {
                entry.turn.awaitNanos(wait);
            } else if (inWindow && dialing < window) {
                entry.dialing = true;
                dialing++;
                return;
            } else {
                if (woken) {
                    // We were woken and can not dial: whatever woke us may have been meant for a job behind us.
                    signalEligible();
                }
                entry.parked = true;
                entry.turn.await();
                entry.parked = false;
            }
            woken = true;
        }
    }

    /**
     * The job of {@code key} was refused or the fleet was unreachable: nothing ran. It keeps its place (or takes one,
     * if it was not queued) and may dial again {@code refusedDelay} from now. Not counted against the job.
     */
    public void refused(JobKey key) {
        requeue(key, refusedDelayNanos, true);
    }

    /**
     * The job of {@code key} got in and failed. It takes its place again and may dial no sooner than
     * {@code failureDelay} from now; meanwhile it holds its place and, if it is in the window, its window slot.
     */
    public void failed(JobKey key) {
        requeue(key, failureDelayNanos, false);
    }

    private void requeue(JobKey key, long delayNanos, boolean refusal) {
        Objects.requireNonNull(key, "key");
        boolean joined = false;
        lock.lock();
        try {
            long notBefore = System.nanoTime() + delayNanos;
            Entry entry = queued.get(key);
            if (entry == null) {
                join(key, notBefore).refusedWait = refusal;
                joined = true;
            } else {
                entry.notBeforeNanos = notBefore;
                entry.refusedWait = refusal;
                releaseDialSlot(entry);
                signalEligible();
            }
        } finally {
            lock.unlock();
        }
        if (joined) {
            onJoin.accept(key);
        }
    }

    /**
     * The job of {@code key} is no longer waiting: a tier2 took it, or it ended. Idempotent. Wakes the job that
     * enters the window, if any, and no other.
     */
    public void leave(JobKey key) {
        Objects.requireNonNull(key, "key");
        lock.lock();
        try {
            Entry entry = queued.get(key);
            if (entry != null) {
                remove(entry);
                if (entry.waiter != null && entry.waiter != Thread.currentThread()) {
                    entry.turn.signal();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * A job of this request has just ended on a tier2, so a slot is free there now. The first job of the window that
     * sits out a refused delay (it was turned away for want of a slot) may dial at once instead of at the end of its
     * delay: otherwise the slot idles, or goes to another request's random redial, for up to {@code refusedDelay}.
     * A job sitting out a failure delay keeps it. Wakes at most that one job; a queue with no such job is unchanged.
     */
    public void slotFreed() {
        lock.lock();
        try {
            long now = System.nanoTime();
            int position = 0;
            for (Entry e : queued.values()) {
                if (position++ >= window) {
                    return;
                }
                if (e.refusedWait && !e.dialing && e.notBeforeNanos - now > 0) {
                    e.notBeforeNanos = now;
                    e.refusedWait = false;
                    if (!e.parked) {
                        e.turn.signal(); // it is in its timed wait, or not waiting yet (then nothing to signal)
                    }
                    return;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** The number of queued jobs. */
    public int size() {
        lock.lock();
        try {
            return queued.size();
        } finally {
            lock.unlock();
        }
    }

    /** The queued keys in launch order; the first {@link #windowSize()} of them are the window. */
    public List<JobKey> snapshot() {
        lock.lock();
        try {
            return List.copyOf(queued.keySet());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Diagnostic: how many times a waiting thread was woken (by a signal or its own timer) since the queue was made.
     */
    public long wakeUps() {
        lock.lock();
        try {
            return wakeUps;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Diagnostic: how many of {@link #wakeUps()} found the job outside the window, that is, were wasted. Outside
     * races with jobs joining in front, this stays zero.
     */
    public long wakeUpsOutsideWindow() {
        lock.lock();
        try {
            return wakeUpsOutsideWindow;
        } finally {
            lock.unlock();
        }
    }

    /** Diagnostic: how many queued jobs hold a dial slot right now; never more than {@link #windowSize()}. */
    public int dialingCount() {
        lock.lock();
        try {
            return dialing;
        } finally {
            lock.unlock();
        }
    }

    // ---- everything below runs with the lock held

    private Entry join(JobKey key, long notBeforeNanos) {
        Entry entry = new Entry(key, lock.newCondition(), notBeforeNanos);
        queued.put(key, entry);
        return entry;
    }

    private void remove(Entry entry) {
        queued.remove(entry.key);
        releaseDialSlot(entry);
        signalEligible();
    }

    private void releaseDialSlot(Entry entry) {
        if (entry.dialing) {
            entry.dialing = false;
            dialing--;
        }
    }

    private boolean isInWindow(Entry entry) {
        int position = 0;
        for (Entry e : queued.values()) {
            if (e == entry) {
                return true;
            }
            if (++position >= window) {
                return false;
            }
        }
        return false;
    }

    /**
     * Signals the parked entries in the window that may now move: each one whose not-before is still ahead (it has
     * just entered the window and will start its timed wait), and as many ready ones as there are free dial slots.
     * Walks at most {@code window} entries; never signals an entry outside the window.
     */
    private void signalEligible() {
        int freeSlots = window - dialing;
        long now = System.nanoTime();
        int position = 0;
        for (Entry e : queued.values()) {
            if (position++ >= window) {
                return;
            }
            if (!e.parked) {
                continue;
            }
            if (e.notBeforeNanos - now > 0) {
                e.parked = false;
                e.turn.signal();
            } else if (freeSlots > 0) {
                freeSlots--;
                e.parked = false;
                e.turn.signal();
            }
        }
    }

    /** The window and the delays, for log lines. */
    @Override
    public String toString() {
        return "LaunchQueue[window=" + window + ", refusedDelay=" + TimeUnit.NANOSECONDS.toMillis(refusedDelayNanos)
                + "ms, failureDelay=" + TimeUnit.NANOSECONDS.toMillis(failureDelayNanos) + "ms]";
    }
}
