package dev.orderly.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchBook.Entry;
import dev.orderly.engine.LaunchBook.Turn;
import dev.orderly.engine.LaunchBook.Wait;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 *       waits with no timeout, costs no CPU, and is woken only when it enters the window.
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
 *       timed wait (it is woken once, and waits untimed).
 *   <li>Interrupting a waiting thread makes {@code awaitTurn} throw {@link InterruptedException} and removes the job;
 *       no wake-up is lost for the others.
 *   <li>A {@code leave} wakes at most the job that enters the window and, if it freed a dial slot, the first ready job
 *       that can use it: no thundering herd.
 * </ul>
 *
 * <h2>Memory consistency</h2>
 * Actions in a thread before it calls {@link #leave}, {@link #refused} or {@link #failed} happen-before the return of
 * a later {@link #awaitTurn}, in any thread, that the call enabled. Actions before {@code awaitTurn} returns
 * happen-before anything its caller does next, as usual.
 *
 * <p>Cost: with nothing queued, {@code awaitTurn} and the job's {@code leave} take no lock and allocate nothing (a
 * count, and a slot per key that dials); with jobs queued, the no-queue path takes the lock once and looks only at
 * the first queued key. {@code slotFreed} with nothing queued takes no lock. Joining and leaving are
 * {@code O(log n + window)}. A waiting job outside the window costs no CPU.
 *
 * <p>This class is thread-safe. One live job per key: a key has at most one thread in {@code awaitTurn}, and calls it
 * again only after reporting back.
 */
public final class LaunchQueue implements DialGate {

    /*
     * Implementation notes.
     *
     * The queue is a monitor over a book. LaunchBook keeps the rules with no threads: the queued map in launch order,
     * the dialers (every key that holds a dial slot, queued or not), the window, each entry's not-before time and how
     * its thread waits; it decides whom each event lets move and names them through the waker, and it asserts its
     * invariants after each change. This class owns the lock, the waits (one Condition per waiting entry, made when it
     * first waits), the interrupts, the onJoin callback (run outside the lock) and the wake-up counts.
     *
     * State and guards: lock guards the book, wakeUps and wakeUpsOutsideWindow, and every field of every entry.
     * queuedCount is the book's size, written under the lock after each change of it and read without the lock by
     * slotFreed's fast path. The configuration fields are final.
     *
     * The no-queue path without the lock: noQueue's QUEUED bit is "the book is not empty", kept so under the lock
     * by changed(); its low bits count the slots of noQueueDialers, keys that took a slot with no lock. Such a slot
     * is taken only by a CAS that sees QUEUED clear, so while anything is queued the count only falls, and only under
     * the lock (a leave or requeue of such a key): the book reads it as its dial slots held elsewhere, and it is
     * still while the book decides. With nothing queued nobody waits, so a slot given back then wakes nobody. A key
     * is in noQueueDialers or in the book, never both: its own thread moves it, under the lock, when it requeues.
     * A join that makes the book non-empty sets QUEUED at the end of its locked section; a slot taken in between is
     * as if taken just before the join, which nothing holding the lock can tell apart.
     *
     * Why no wake-up is lost: a waiting thread can be allowed to dial only by an entry in front of it leaving (it may
     * enter the window), a job reporting back (a dial slot frees up), its not-before time passing (its own timed wait
     * ends), or leave of its own key (it returns, holding nothing). Every event of the first two kinds, and every
     * interrupted wait, ends in the book naming the parked entries that may now move, under the lock. A thread records
     * how it waits (entry.wait, set by the book's turn) before await releases the lock, and every state change is made
     * under the same lock, so no event can fall between a thread's last look and its wait. A woken thread that can not
     * dial passes the turn on before it waits again.
     *
     * Wake-up counts: wakeUps counts every return from await/awaitNanos; wakeUpsOutsideWindow those that found the job
     * outside the window (a timer or signal meant for a job that a join pushed out before it ran), except the one
     * wake-up that tells a job it was pushed out.
     */

    /**
     * The queue's figures, read together under its lock.
     *
     * @param queued the number of queued jobs ({@link #size()})
     * @param dialing how many of the request's jobs hold a dial slot right now, queued or not; while anything is
     *     queued no job gets a turn that would make it more than the window, with nothing queued it is not bounded
     * @param wakeUps how many times a waiting thread was woken (by a signal or its own timer) since the queue was made,
     *     including the one wake-up of a job pushed out of the window and of a job whose key left
     * @param wakeUpsOutsideWindow how many of {@code wakeUps} found the job outside the window, that is, were wasted:
     *     a timer or a signal meant for a job in the window that a join pushed out before it ran. The one signal that
     *     tells a job it was pushed out is not counted. Outside races with jobs joining in front, this stays zero.
     */
    public record Stats(int queued, int dialing, long wakeUps, long wakeUpsOutsideWindow) {
    }

    private static final int QUEUED = 1 << 30;

    private final ReentrantLock lock = new ReentrantLock();
    private final int window;
    private final long refusedDelayNanos;
    private final long failureDelayNanos;
    private final Consumer<? super JobKey> onJoin;
    private final LongSupplier nanoTime;

    @GuardedBy("lock")
    private final LaunchBook book;
    // The lock-free no-queue path. QUEUED mirrors "the book is not empty" (set and cleared under the lock, in
    // changed()); the low bits count the dial slots held by noQueueDialers. A slot is taken (CAS) only while QUEUED is
    // clear; while it is set the count changes only under the lock, so the book's decisions see it still.
    private final AtomicInteger noQueue = new AtomicInteger();
    private final NoQueueDialers noQueueDialers;
    // written under the lock after each change of the book's size, read without it by slotFreed
    private volatile int queuedCount;
    @GuardedBy("lock")
    private long wakeUps;
    @GuardedBy("lock")
    private long wakeUpsOutsideWindow;

    /**
     * A queue for one request of {@code workers} workers, with the window and delays of {@code config}.
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
     * A queue for one request of {@code workers} workers that takes only what it uses: the window's rule, and how
     * long a refused and a failed job wait before they dial again. {@code onJoin} as above.
     *
     * @throws IllegalArgumentException if {@code workers < 1}, or a delay is negative or longer than the clock counts in
     *     nanoseconds (about 292 years)
     * @throws NullPointerException if an argument is null
     */
    public LaunchQueue(int workers, LaunchWindow window, Duration refusedDelay, Duration failureDelay,
            Consumer<? super JobKey> onJoin) {
        this(workers, window.size(workers), nanos("refusedDelay", refusedDelay), nanos("failureDelay", failureDelay),
                onJoin, System::nanoTime);
    }

    /**
     * A queue that reads not-before times from {@code nanoTime}, for tests that decide what time it is. Waits still
     * take real time: a timed wait ends when the real delay has passed and then reads {@code nanoTime} again.
     */
    LaunchQueue(int workers, EngineConfig config, Consumer<? super JobKey> onJoin, LongSupplier nanoTime) {
        this(workers, windowSize(workers, config), config.refusedDelay().toNanos(), config.failureDelay().toNanos(),
                onJoin, nanoTime);
    }

    private LaunchQueue(int workers, int window, long refusedDelayNanos, long failureDelayNanos,
            Consumer<? super JobKey> onJoin, LongSupplier nanoTime) {
        this.window = window;
        // A request has at most one job per worker, so at most that many dial at once.
        this.noQueueDialers = new NoQueueDialers(workers);
        this.book = new LaunchBook(window, LaunchQueue::wake, lock, () -> noQueue.get() & ~QUEUED);
        this.refusedDelayNanos = refusedDelayNanos;
        this.failureDelayNanos = failureDelayNanos;
        this.onJoin = Objects.requireNonNull(onJoin, "onJoin");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    private static final Duration LONGEST_DELAY = Duration.ofNanos(Long.MAX_VALUE);

    private static long nanos(String name, Duration delay) {
        Objects.requireNonNull(delay, name);
        if (delay.isNegative()) {
            throw new IllegalArgumentException(name + " must be >= 0, was " + delay);
        }
        if (delay.compareTo(LONGEST_DELAY) > 0) {
            throw new IllegalArgumentException(name + " must be at most " + LONGEST_DELAY
                    + " (about 292 years, the most nanoseconds the clock counts), was " + delay);
        }
        return delay.toNanos();
    }

    /** The book names an entry whose thread may now move; it waits on the entry's condition (under the lock). */
    private static void wake(Entry entry) {
        entry.turn.signal();
    }

    /**
     * The window for {@code workers} workers: {@code clamp(workers * launchWindowPercent / 100, launchWindowMin,
     * launchWindowMax)} with integer division. With the defaults: 10 workers give 2, 50 give 10, 200 give 15, 1 gives 2.
     *
     * @throws IllegalArgumentException if {@code workers < 1}
     * @throws NullPointerException if {@code config} is null
     * @see LaunchWindow#size(int)
     */
    public static int windowSize(int workers, EngineConfig config) {
        return LaunchWindow.of(config).size(workers);
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
     * @throws IllegalStateException if another thread waits for the same key, or the key holds a dial slot already;
     *     checked before the interrupt, and the queue is left as it was
     */
    @Override
    public void awaitTurn(JobKey key) throws InterruptedException {
        Objects.requireNonNull(key, "key");
        if (!Thread.currentThread().isInterrupted() && takeNoQueueSlot()) {
            if (noQueueDialers.add(key)) {
                return;
            }
            giveNoQueueSlotBack();
            throw new IllegalStateException(key + " is dialing already; report refused, failed or leave first");
        }
        boolean joined = false;
        lock.lock();
        try {
            Entry entry = book.entry(key);
            // A second caller of the key is refused before its interrupt is looked at: the key's place belongs to the
            // thread that holds it, and a refusal changes nothing, interrupted or not.
            if (book.isDialing(key) || noQueueDialers.contains(key)) {
                throw new IllegalStateException(key + " is dialing already; report refused, failed or leave first");
            }
            if (entry != null && entry.waiting) {
                throw new IllegalStateException(key + " already has a thread waiting for its turn");
            }
            if (Thread.interrupted()) {
                if (entry != null) {
                    book.remove(entry, nanoTime.getAsLong());
                    changed();
                }
                throw new InterruptedException();
            }
            if (entry == null) {
                if (book.passes(key)) {
                    assert invariantsHold();
                    return;
                }
                long now = nanoTime.getAsLong();
                book.join(key, now, now);
                changed();
                joined = true;
            }
        } finally {
            lock.unlock();
        }
        if (joined) {
            onJoin.accept(key);
        }
        lock.lock();
        try {
            Entry entry = book.entry(key);
            if (entry == null) {
                return;
            }
            if (entry.turn == null) {
                entry.turn = lock.newCondition();
            }
            book.waitFor(entry);
            try {
                waitForTurn(entry);
                if (book.isDialing(key) && Thread.interrupted()) {
                    // Interrupted after the signal that let it dial, before it had the lock back: await favours the
                    // signal and only sets the interrupt status. It waited when interrupted, so it throws as
                    // documented; its turn, unused, goes on (an early turn to the next refused job, the slot to the
                    // window's next ready one).
                    book.leaveWithoutDialing(key, nanoTime.getAsLong());
                    throw new InterruptedException();
                }
            } catch (InterruptedException e) {
                if (book.entry(key) == entry) {
                    book.remove(entry, nanoTime.getAsLong());
                }
                throw e;
            } finally {
                book.doneWaiting(entry);
                changed();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * No queue, no wait, and no lock: while nothing is queued, a dial slot is one count more. False if anything is
     * queued (the caller then asks the book under the lock).
     */
    private boolean takeNoQueueSlot() {
        int s;
        while (((s = noQueue.get()) & QUEUED) == 0) {
            if (noQueue.compareAndSet(s, s + 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Gives back a slot taken by {@link #takeNoQueueSlot}. With nothing queued, nobody waits for it: one count less.
     * With anything queued, under the lock, and the window's next ready job is woken, as a leave wakes it.
     */
    private void giveNoQueueSlotBack() {
        int s;
        while (((s = noQueue.get()) & QUEUED) == 0) {
            if (noQueue.compareAndSet(s, s - 1)) {
                return;
            }
        }
        lock.lock();
        try {
            noQueue.decrementAndGet();
            book.slotReturned(nanoTime.getAsLong());
            assert invariantsHold();
        } finally {
            lock.unlock();
        }
    }

    /** Waits on {@code entry.turn} until the book lets the job dial (it then holds a dial slot), or its key leaves. */
    @GuardedBy("lock")
    private void waitForTurn(Entry entry) throws InterruptedException {
        assert lock.isHeldByCurrentThread();
        boolean woken = false;
        while (book.entry(entry.key) == entry) {
            boolean pushedOut = entry.pushedOut;
            long now = nanoTime.getAsLong();
            Turn turn = book.turn(entry, woken, now);
            if (woken && turn == Turn.PARKED_OUTSIDE_THE_WINDOW && !pushedOut) {
                wakeUpsOutsideWindow++;
            }
            switch (turn) {
                case DIAL -> {
                    return;
                }
                case TIMED -> entry.turn.awaitNanos(entry.notBeforeNanos - now);
                case PARKED, PARKED_OUTSIDE_THE_WINDOW -> entry.turn.await();
            }
            book.awake(entry);
            wakeUps++;
            woken = true;
        }
    }

    /**
     * The job of {@code key} was refused or the fleet was unreachable: nothing ran. It keeps its place (or takes one,
     * if it was not queued) and may dial again {@code refusedDelay} from now. Not counted against the job.
     */
    @Override
    public void refused(JobKey key) {
        requeue(key, refusedDelayNanos, true);
    }

    /**
     * The job of {@code key} got in and failed. It takes its place again and may dial no sooner than
     * {@code failureDelay} from now; meanwhile it holds its place and, if it is in the window, its window slot.
     */
    @Override
    public void failed(JobKey key) {
        requeue(key, failureDelayNanos, false);
    }

    private void requeue(JobKey key, long delayNanos, boolean refusal) {
        Objects.requireNonNull(key, "key");
        boolean joined;
        lock.lock();
        try {
            if (noQueueDialers.remove(key)) {
                // Its slot was taken without the lock: it goes back here, before the book gives the job its place.
                noQueue.decrementAndGet();
            }
            long now = nanoTime.getAsLong();
            joined = book.requeue(key, now + delayNanos, refusal, now);
            changed();
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
    @Override
    public void leave(JobKey key) {
        leave(key, true);
    }

    /**
     * The job of {@code key} took its turn and stops without dialing (its unit is no longer needed, or it gives its
     * worker up): it leaves, as {@link #leave(JobKey)}, and if a freed slot let it dial early ({@link #slotFreed}),
     * the next refused job of the window gets that early turn, as when a job leaves before it comes back for its turn.
     */
    @Override
    public void leaveWithoutDialing(JobKey key) {
        leave(key, false);
    }

    /** {@link #leave(JobKey)} if {@code mayHaveDialed}, else {@link #leaveWithoutDialing(JobKey)}. */
    private void leave(JobKey key, boolean mayHaveDialed) {
        Objects.requireNonNull(key, "key");
        if (noQueueDialers.remove(key)) {
            // It took its slot without the lock, so it was never queued: giving the slot back is all there is to do.
            giveNoQueueSlotBack();
            return;
        }
        lock.lock();
        try {
            if (book.holds(key)) { // else a repeated leave: nothing to do, and no clock read
                if (mayHaveDialed) {
                    book.leave(key, nanoTime.getAsLong());
                } else {
                    book.leaveWithoutDialing(key, nanoTime.getAsLong());
                }
                changed();
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
    @Override
    public void slotFreed() {
        if (queuedCount == 0) {
            // Nothing queued, so no refused job waits: nothing to do, and no lock taken. A job refused at the same
            // moment is as if refused just after: it sits out its delay, as it would had it taken the lock second.
            return;
        }
        lock.lock();
        try {
            book.slotFreed(nanoTime.getAsLong());
            assert invariantsHold();
        } finally {
            lock.unlock();
        }
    }

    /** The number of queued jobs. */
    public int size() {
        lock.lock();
        try {
            return book.size();
        } finally {
            lock.unlock();
        }
    }

    /** The queued keys in launch order; the first {@link #windowSize()} of them are the window. */
    public List<JobKey> snapshot() {
        lock.lock();
        try {
            return book.order();
        } finally {
            lock.unlock();
        }
    }

    /** The queue's figures, read together. */
    public Stats stats() {
        lock.lock();
        try {
            return new Stats(book.size(), book.dialing(), wakeUps, wakeUpsOutsideWindow);
        } finally {
            lock.unlock();
        }
    }

    /**
     * How many waiting threads were woken and found their job outside the window; {@code stats().wakeUpsOutsideWindow()}.
     * A timer never wakes a job outside the window, so outside races with jobs joining in front this stays zero.
     */
    public long wakeUpsOutsideWindow() {
        return stats().wakeUpsOutsideWindow();
    }

    /**
     * How many jobs hold a dial slot now; {@code stats().dialing()}.
     *
     * @deprecated read {@link #stats()}, which gives every figure at one moment; kept so that code written against
     *     0.1 still compiles
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int dialingCount() {
        return stats().dialing();
    }

    /**
     * How many times a waiting thread was woken; {@code stats().wakeUps()}.
     *
     * @deprecated read {@link #stats()}, which gives every figure at one moment; kept so that code written against
     *     0.1 still compiles
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public long wakeUps() {
        return stats().wakeUps();
    }

    /** Under the lock, after a change of the book: keeps {@code queuedCount} its size, and checks the invariants. */
    @GuardedBy("lock")
    private void changed() {
        int size = book.size();
        if (size != queuedCount) {
            queuedCount = size;
        }
        int s = noQueue.get();
        if ((size > 0) != ((s & QUEUED) != 0)) {
            // From here on (until the next change) the no-queue path takes no slot, or takes them again.
            noQueue.getAndUpdate(size > 0 ? v -> v | QUEUED : v -> v & ~QUEUED);
        }
        assert invariantsHold();
    }

    @GuardedBy("lock")
    private boolean invariantsHold() {
        assert lock.isHeldByCurrentThread();
        if (queuedCount != book.size()) {
            throw new AssertionError("queuedCount " + queuedCount + " but " + book.size() + " queued");
        }
        if (((noQueue.get() & QUEUED) != 0) != (book.size() > 0)) {
            throw new AssertionError("the no-queue path is " + ((noQueue.get() & QUEUED) != 0 ? "closed" : "open")
                    + " with " + book.size() + " queued");
        }
        return book.invariantsHold(nanoTime.getAsLong());
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

    /** For tests: the condition the thread waiting for the turn of {@code key} waits on, or null if none. */
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
            Entry entry = book.entry(key);
            return entry == null ? ifNotQueued : read.apply(entry);
        } finally {
            lock.unlock();
        }
    }

    /** The window and the delays, for log lines. */
    @Override
    public String toString() {
        return "LaunchQueue[window=" + window + ", refusedDelay="
                + TimeUnit.NANOSECONDS.toMillis(refusedDelayNanos) + "ms, failureDelay="
                + TimeUnit.NANOSECONDS.toMillis(failureDelayNanos) + "ms]";
    }
}
