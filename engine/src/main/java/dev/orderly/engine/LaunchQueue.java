package dev.orderly.engine;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The per-request queue of jobs waiting to get to a tier2, in launch order, with a small dialing window.
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li>Queued jobs are kept in {@linkplain JobKey#compareTo launch order}: lowest segment first, then highest stage.
 *   <li>The <em>window</em> is the first {@link #windowSize()} queued jobs. Only a job inside the window may dial from
 *       the queue, and only once its not-before time has passed. A job outside the window sends nothing: its thread
 *       waits on its own {@link Condition} with no timeout, costs no CPU, and is woken only when it enters the window.
 *   <li><b>Dial slots.</b> A job <em>dials</em> from the return of {@link #awaitTurn} until it reports back through
 *       {@link #refused}, {@link #failed} or {@link #leave}, whether it came through the queue or the no-queue path.
 *       While anything is queued, a job gets its turn only while fewer than {@code windowSize()} of the request's jobs
 *       dial. So a job that sorts ahead of everything queued (a late low segment, a newly runnable higher stage of the
 *       head's segment) dials at once when a slot is free, and otherwise takes the front place and dials as soon as a
 *       dial resolves. With nothing queued there is no bound: the fleet has room.
 *   <li><b>No queue, no wait:</b> {@code awaitTurn} of a job that is not queued returns at once, and the job does not
 *       join, when nothing is queued, or when it sorts ahead of everything queued and a dial slot is free. A fleet with
 *       room is paced exactly as without the queue.
 *   <li>{@code refused}: the job keeps (or takes) its place and may dial again {@code refusedDelay} later, or sooner:
 *       {@link #slotFreed} (a job of the request has just ended, so a slot is free on a tier2) lets the window's first
 *       refused job dial at once. Measured with short jobs on a full fleet, that slot otherwise idles or goes to
 *       another request. {@code failed}: the same with {@code failureDelay}, which {@code slotFreed} does not shorten;
 *       while it waits it holds its place and, in the window, its window slot.
 *   <li>{@code leave}: the job is gone; idempotent. Call it the moment a tier2 takes the job, and again on every
 *       exit path.
 *   <li>A timer never wakes a job outside the window: a job that a join in front pushes out of the window gives up its
 *       timed wait (it is signalled once, and waits untimed).
 *   <li>Interrupting a waiting thread makes {@code awaitTurn} throw {@link InterruptedException} and removes the job.
 * </ul>
 *
 * <h2>State and invariants</h2>
 * {@code lock} guards all mutable state: {@code queued}, {@code dialers}, the two wake-up counters, and every field of
 * every {@link Entry}. The configuration fields are final. Under the lock, between operations:
 * <ul>
 *   <li>{@code queued} holds one {@link Entry} per queued key, in launch order; {@code dialers} holds every key that
 *       holds a dial slot, queued (dialing from its place) or not (came through the no-queue path).
 *   <li>No key both holds a dial slot and has a thread waiting for its turn.
 *   <li>An entry's {@link Wait} says what its thread does: {@code TIMED} (only inside the window), {@code PARKED}
 *       (untimed: outside the window, or ready with no slot free), {@code SIGNALLED} (will look again), or
 *       {@code NONE}. A {@code PARKED} entry inside the window is ready (its not-before time has passed).
 *   <li>If a ready entry inside the window is {@code PARKED}, no dial slot is free that a signalled thread will not
 *       look at: {@code dialers.size() + signalled >= window}.
 * </ul>
 * {@code invariantsHold()} checks these after each change when assertions are enabled.
 *
 * <h2>What wakes whom, and why no wake-up is lost</h2>
 * A waiting thread can be allowed to dial by exactly these events: an entry in front of it leaves (it may enter the
 * window), a job reports back (a dial slot frees up), its not-before time passes (its own timed wait ends), or
 * {@code leave} of its own key (it returns, holding nothing). Every event of the first two kinds, every
 * {@code leave}, {@code refused}, {@code failed} and interrupted wait, ends in {@code signalEligible()} under the
 * lock, which walks only the first {@code window} entries and signals the {@code PARKED} ones that may now move:
 * each one whose not-before time is still ahead (it has just entered the window and will start its timed wait), and,
 * from the head, as many ready ones as there are free dial slots. Since a thread records how it waits before it
 * releases the lock in {@code await}, and every state change is made under the same lock, no event can fall between
 * a thread's last look and its wait. A woken thread that can not dial passes the turn on with
 * {@code signalEligible()} before it waits again. So a {@code leave} wakes at most the job that entered the window
 * and, if it freed a dial slot, the first ready job that can use it: no herd. Entries outside the window are never
 * signalled except once, by the join that pushes a timed waiter out; a refused head costs its followers nothing.
 *
 * <h2>Memory consistency</h2>
 * Actions in a thread before it calls {@link #leave}, {@link #refused} or {@link #failed} happen-before the return of
 * a later {@link #awaitTurn}, in any thread, that the call enabled (the lock is released by the first and acquired by
 * the second). Actions before {@code awaitTurn} returns happen-before anything its caller does next, as usual.
 *
 * <p>Cost: {@code awaitTurn}'s no-queue path takes the lock once and looks only at the first queued key;
 * {@code slotFreed} with nothing queued takes no lock. Joining and leaving are {@code O(log n + window)}. A waiting
 * job outside the window costs no CPU.
 *
 * <p>This class is thread-safe. One live job per key: a key has at most one thread in {@code awaitTurn}, and calls it
 * again only after reporting back.
 */
public final class LaunchQueue {

    private final ReentrantLock lock = new ReentrantLock();
    private final int window;
    private final long refusedDelayNanos;
    private final long failureDelayNanos;
    private final Consumer<? super JobKey> onJoin;
    private final LongSupplier nanoTime;

    // guarded by lock
    private final TreeMap<JobKey, Entry> queued = new TreeMap<>();
    // guarded by lock: every job of the request that holds a dial slot, queued or not
    private final HashSet<JobKey> dialers = new HashSet<>();
    // written under the lock after each change of queued, read without it by slotFreed: queued.size()
    private volatile int queuedCount;
    // guarded by lock
    private long wakeUps;
    // guarded by lock
    private long wakeUpsOutsideWindow;

    /** What the thread waiting for an entry's turn is doing, as far as the lock holder knows. */
    enum Wait {
        /** No thread waits, or it is running (it holds the lock, or is about to take it after its wait). */
        NONE,
        /** In a timed wait for its not-before time; only inside the window. */
        TIMED,
        /** In an untimed wait: outside the window, or out of dial slots. */
        PARKED,
        /** Signalled; it will look at its place again once it has the lock. */
        SIGNALLED
    }

    /** One queued job. Every field is guarded by the queue's lock. */
    private static final class Entry {
        final JobKey key;
        final Condition turn;
        long notBeforeNanos;
        Thread waiter;
        Wait wait = Wait.NONE;
        /** Signalled out of its timed wait because a join in front pushed it out of the window. */
        boolean pushedOut;
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
        this(workers, config, onJoin, System::nanoTime);
    }

    /**
     * A queue that reads not-before times from {@code nanoTime}, for tests that decide what time it is. Waits still
     * take real time: a timed wait ends when the real delay has passed and then reads {@code nanoTime} again.
     */
    LaunchQueue(int workers, EngineConfig config, Consumer<? super JobKey> onJoin, LongSupplier nanoTime) {
        this.window = windowSize(workers, config);
        this.refusedDelayNanos = config.refusedDelay().toNanos();
        this.failureDelayNanos = config.failureDelay().toNanos();
        this.onJoin = Objects.requireNonNull(onJoin, "onJoin");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
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
     * <p>A job that is not queued returns at once and does not join when nothing is queued, or when it sorts ahead
     * of everything queued and fewer than {@link #windowSize()} jobs dial. Otherwise the job joins at its place (or
     * keeps the place it has) and waits until it is inside the window, its not-before time has passed, and a dial slot
     * is free. When it returns, the job holds a dial slot until it reports back with {@link #refused}, {@link #failed}
     * or {@link #leave}; whatever the thread that reported did before that call happens-before the return of the
     * {@code awaitTurn} it enabled. If another thread calls {@code leave(key)} while this thread waits, this method
     * returns holding no slot: nothing holds the job back any more.
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
                    assert invariantsHold();
                }
                throw new InterruptedException();
            }
            if (dialers.contains(key)) {
                throw new IllegalStateException(key + " is dialing already; report refused, failed or leave first");
            }
            if (entry == null) {
                // Nothing queued ahead of it (the key itself is not queued), and no queue or a free dial slot.
                // (A head map's isEmpty would make a view and count it, walking every queued key below this one.)
                if (queued.isEmpty() || (queued.firstKey().compareTo(key) > 0 && dialers.size() < window)) {
                    dialers.add(key);
                    assert invariantsHold();
                    return;
                }
                entry = join(key, nanoTime.getAsLong());
                joined = true;
                assert invariantsHold();
            } else if (entry.waiter != null) {
                throw new IllegalStateException(key + " already has a thread waiting for its turn");
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
                entry.wait = Wait.NONE;
                entry.pushedOut = false;
                assert invariantsHold();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits on {@code entry.turn} until the job may dial, then takes a dial slot. */
    private void waitForTurn(Entry entry) throws InterruptedException {
        assert lock.isHeldByCurrentThread();
        boolean woken = false;
        while (queued.get(entry.key) == entry) {
            boolean inWindow = isInWindow(entry);
            if (woken && !inWindow && !entry.pushedOut) {
                wakeUpsOutsideWindow++;
            }
            entry.pushedOut = false;
            long wait = entry.notBeforeNanos - nanoTime.getAsLong();
            if (inWindow && wait > 0) {
                entry.wait = Wait.TIMED;
                assert invariantsHold();
                entry.turn.awaitNanos(wait);
            } else if (inWindow && dialers.size() < window) {
                dialers.add(entry.key);
                return;
            } else {
                if (woken) {
                    // We were woken and can not dial: whatever woke us may have been meant for a job behind us.
                    signalEligible();
                }
                entry.wait = Wait.PARKED;
                assert invariantsHold();
                entry.turn.await();
            }
            entry.wait = Wait.NONE;
            wakeUps++;
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
            long notBefore = nanoTime.getAsLong() + delayNanos;
            dialers.remove(key);
            Entry entry = queued.get(key);
            if (entry == null) {
                join(key, notBefore).refusedWait = refusal;
                joined = true;
            } else {
                entry.notBeforeNanos = notBefore;
                entry.refusedWait = refusal;
            }
            signalEligible();
            assert invariantsHold();
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
                    entry.wait = Wait.SIGNALLED;
                    entry.turn.signal();
                }
            } else if (dialers.remove(key)) {
                signalEligible();
            }
            assert invariantsHold();
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
        if (queuedCount == 0) {
            // Nothing queued, so no refused job waits: nothing to do, and no lock taken. A job refused at the same
            // moment is as if refused just after: it sits out its delay, as it would had it taken the lock second.
            return;
        }
        lock.lock();
        try {
            long now = nanoTime.getAsLong();
            int position = 0;
            for (Entry e : queued.values()) {
                if (position++ >= window) {
                    break;
                }
                if (e.refusedWait && !dialers.contains(e.key) && e.notBeforeNanos - now > 0) {
                    e.notBeforeNanos = now;
                    e.refusedWait = false;
                    if (e.wait == Wait.TIMED) {
                        // Its delay is over: it looks again, and dials if a dial slot is free, else parks for one.
                        e.wait = Wait.SIGNALLED;
                        e.turn.signal();
                    }
                    break;
                }
            }
            assert invariantsHold();
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
     * Diagnostic: how many times a waiting thread was woken (by a signal or its own timer) since the queue was made,
     * including the one wake-up of a job pushed out of the window and of a job whose key left.
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
     * Diagnostic: how many of {@link #wakeUps()} found the job outside the window, that is, were wasted: a timer or a
     * signal meant for a job in the window that a join pushed out before it ran. The one signal that tells a job it was
     * pushed out is not counted. Outside races with jobs joining in front, this stays zero.
     */
    public long wakeUpsOutsideWindow() {
        lock.lock();
        try {
            return wakeUpsOutsideWindow;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Diagnostic: how many of the request's jobs hold a dial slot right now, queued or not. While anything is queued no
     * job gets a turn that would make it more than {@link #windowSize()}; with nothing queued it is not bounded.
     */
    public int dialingCount() {
        lock.lock();
        try {
            return dialers.size();
        } finally {
            lock.unlock();
        }
    }

    // ---- everything below runs with the lock held

    private Entry join(JobKey key, long notBeforeNanos) {
        assert lock.isHeldByCurrentThread();
        Entry entry = new Entry(key, lock.newCondition(), notBeforeNanos);
        queued.put(key, entry);
        queuedCount = queued.size();
        pushOutOfTheWindow();
        return entry;
    }

    /**
     * After a join: the entry it pushed out of the window gives up its timed wait, so that no timer wakes a job outside
     * the window. Its thread is signalled once and parks untimed; that one wake-up is the push-out's, not a wasted one.
     * Only the entry just past the window can be in a timed wait there, and only if the join was in front of it: a
     * timed wait is only ever started inside the window, so the join need not say where it took place.
     */
    private void pushOutOfTheWindow() {
        assert lock.isHeldByCurrentThread();
        int position = 0;
        for (Entry e : queued.values()) {
            if (position++ == window) {
                if (e.wait == Wait.TIMED) {
                    e.wait = Wait.SIGNALLED;
                    e.pushedOut = true;
                    e.turn.signal();
                }
                return;
            }
        }
    }

    private void remove(Entry entry) {
        assert lock.isHeldByCurrentThread();
        queued.remove(entry.key);
        queuedCount = queued.size();
        dialers.remove(entry.key);
        signalEligible();
    }

    private boolean isInWindow(Entry entry) {
        assert lock.isHeldByCurrentThread();
        int position = 0;
        for (Entry e : queued.values()) {
            if (e == entry) {
                return true;
            }
            if (++position >= window) {
                return false;
            }
        }
        throw new AssertionError(entry.key + " is not queued"); // only a queued job's thread asks
    }

    /**
     * Signals the parked entries in the window that may now move: each one whose not-before is still ahead (it has
     * just entered the window and will start its timed wait), and as many ready ones as there are free dial slots.
     * Walks at most {@code window} entries; never signals an entry outside the window.
     */
    private void signalEligible() {
        assert lock.isHeldByCurrentThread();
        int freeSlots = window - dialers.size();
        long now = nanoTime.getAsLong();
        int position = 0;
        for (Entry e : queued.values()) {
            if (position++ >= window) {
                return;
            }
            if (e.wait != Wait.PARKED) {
                continue;
            }
            if (e.notBeforeNanos - now > 0) {
                e.wait = Wait.SIGNALLED;
                e.turn.signal();
            } else if (freeSlots > 0) {
                freeSlots--;
                e.wait = Wait.SIGNALLED;
                e.turn.signal();
            }
        }
    }

    /** For tests: what the thread waiting for the turn of {@code key} is doing; {@code NONE} if the key is not queued. */
    Wait waitState(JobKey key) {
        return readEntry(key, e -> e.wait, Wait.NONE);
    }

    /** For tests: the not-before time of {@code key}, on the queue's clock. */
    long notBeforeNanos(JobKey key) {
        Long notBefore = readEntry(key, e -> e.notBeforeNanos, null);
        if (notBefore == null) {
            throw new IllegalStateException(key + " is not queued");
        }
        return notBefore;
    }

    /** For tests: the condition the thread waiting for the turn of {@code key} waits on, or null if not queued. */
    Condition turnOf(JobKey key) {
        return readEntry(key, e -> e.turn, null);
    }

    /**
     * For tests: runs {@code changes} holding the queue's lock (it is reentrant), so that no waiting thread runs
     * between the calls it makes: a signal and a join in front of the signalled job, for instance.
     */
    void whileLocked(Runnable changes) {
        lock.lock();
        try {
            changes.run();
        } finally {
            lock.unlock();
        }
    }

    private <T> T readEntry(JobKey key, Function<Entry, T> read, T ifNotQueued) {
        lock.lock();
        try {
            Entry entry = queued.get(key);
            return entry == null ? ifNotQueued : read.apply(entry);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Checks the invariants of the class comment, in {@code O(queued)}; for {@code assert invariantsHold()} after each
     * change, so that it costs nothing unless assertions are enabled (the tests run with {@code -ea}).
     */
    private boolean invariantsHold() {
        assert lock.isHeldByCurrentThread();
        if (queuedCount != queued.size()) {
            throw new AssertionError("queuedCount " + queuedCount + " but " + queued.size() + " queued");
        }
        long now = nanoTime.getAsLong();
        int position = 0;
        int signalled = 0;
        boolean readyAndParkedInWindow = false;
        for (var mapping : queued.entrySet()) {
            Entry e = mapping.getValue();
            boolean inWindow = position++ < window;
            if (!e.key.equals(mapping.getKey())) {
                throw new AssertionError("entry of " + e.key + " filed under " + mapping.getKey());
            }
            if (e.waiter == null && e.wait != Wait.NONE) {
                throw new AssertionError(e.key + " has no waiting thread but is recorded as " + e.wait);
            }
            if (e.waiter != null && dialers.contains(e.key)) {
                throw new AssertionError(e.key + " holds a dial slot and still waits for its turn");
            }
            if (e.wait == Wait.TIMED && !inWindow) {
                throw new AssertionError(e.key + " is in a timed wait outside the window");
            }
            if (e.pushedOut && e.wait != Wait.SIGNALLED) {
                throw new AssertionError(e.key + " was pushed out of the window but not signalled");
            }
            if (e.wait == Wait.SIGNALLED) {
                signalled++;
            }
            if (inWindow && e.wait == Wait.PARKED) {
                if (e.notBeforeNanos - now > 0) {
                    throw new AssertionError(e.key + " is in the window with a not-before time ahead, parked untimed");
                }
                readyAndParkedInWindow = true;
            }
        }
        if (readyAndParkedInWindow && dialers.size() + signalled < window) {
            throw new AssertionError("a dial slot is free and a ready job in the window stays parked: " + queued.keySet()
                    + ", dialing " + dialers + ", signalled " + signalled);
        }
        return true;
    }

    /** The window and the delays, for log lines. */
    @Override
    public String toString() {
        return "LaunchQueue[window=" + window + ", refusedDelay=" + TimeUnit.NANOSECONDS.toMillis(refusedDelayNanos)
                + "ms, failureDelay=" + TimeUnit.NANOSECONDS.toMillis(failureDelayNanos) + "ms]";
    }
}
