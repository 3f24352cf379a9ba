package dev.orderly.engine;

import dev.orderly.api.JobKey;
import java.util.HashSet;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The rules of one request's launch queue, with no threads: who is queued and in what order, who holds a dial slot,
 * who is in the window, when each queued job may dial again, and whom each event lets move. {@link LaunchQueue} is
 * the monitor over it: it takes the lock, asks the book, waits and signals; the book decides and never waits or
 * signals. It names whom to wake through the {@code waker} it is given, and records on each entry how its thread
 * waits ({@link Wait}), so that it can tell a thread that will look again from one that must be woken.
 *
 * <h2>Rules (the same, one by one, as the stress module's {@code QueueModel}, the reference model the real queue is
 * checked against; {@code LaunchBookTest} tests each here with no threads)</h2>
 * <ul>
 *   <li>Queued jobs are kept in launch order; the window is the first {@code window} of them.
 *   <li>A job holds a dial slot from its turn until it reports back ({@link #requeue} or {@link #leave}), queued or
 *       not. While anything is queued, at most {@code window} jobs hold one.
 *   <li>No queue, no wait ({@link #passes}): a job that is not queued takes a slot without joining when nothing is
 *       queued (no bound at all), or when it sorts ahead of everything queued and a slot is free.
 *   <li>A queued job may dial ({@link #turn}) only inside the window, once its not-before time has passed, and while
 *       a slot is free; when several may, the event that frees a slot wakes the one closest to the head.
 *   <li>A refusal or failure ({@link #requeue}) gives back the slot and keeps (or takes) the job's place with a new
 *       not-before time. {@link #slotFreed} ends the refused delay of the window's first refused job, never a
 *       failure delay.
 *   <li>{@link #leave} removes the job (idempotent): a thread waiting for its turn is woken to return holding nothing.
 *   <li>Only a job in the window is ever in a timed wait: a join that pushes a timed waiter out of the window wakes
 *       it once, to park untimed.
 * </ul>
 *
 * <p>Not thread-safe: {@link LaunchQueue} guards it with its lock, which the book asserts is held (when given one);
 * every change ends by asserting {@link #invariantsHold} (both checked when assertions are on, as in the tests).
 * Times are passed in ({@code now}, on the queue's clock), so the book reads no clock either.
 */
final class LaunchBook {

    /*
     * Implementation notes.
     *
     * Cost: queued is a TreeMap (join, leave O(log n)); every walk over it stops at the window's end, so an event costs
     * O(log n + window). dialers is a set of the keys holding a slot taken under the lock, queued or not (a no-queue
     * job that took it there is only there); the slots the monitor hands out without its lock are counted by
     * elsewhere.
     *
     * Whom an event wakes: wakeEligible walks the first window entries and wakes each PARKED one that may now move:
     * one whose not-before time is still ahead (it has just entered the window and will start its timed wait), and,
     * from the head, as many ready ones as there are free slots. Every event that can let a waiting job move (an
     * entry in front leaves, a slot frees, a requeue) ends in wakeEligible; a woken job that still can not dial passes
     * the turn on (turn with woken=true calls wakeEligible before it parks again), so a wake-up meant for a job behind
     * it is never lost. Entries outside the window are woken only once, by the join that pushes a timed waiter out.
     */

    /** What the thread waiting for an entry's turn is doing, as far as the lock holder knows. */
    enum Wait {
        /** No thread waits, or it is running (it holds the lock, or is about to take it after its wait). */
        NONE,
        /** In a timed wait for its not-before time; only inside the window. */
        TIMED,
        /** In an untimed wait: outside the window, or out of dial slots. */
        PARKED,
        /** Woken; it will look at its place again once it has the lock. */
        SIGNALLED
    }

    /** What a queued job's thread does next, as {@link #turn} decided. */
    enum Turn {
        /** It took a dial slot: it dials now. */
        DIAL,
        /** A timed wait until its not-before time: it is in the window. */
        TIMED,
        /** An untimed wait inside the window: it is ready, but no slot is free. */
        PARKED,
        /** An untimed wait outside the window. */
        PARKED_OUTSIDE_THE_WINDOW
    }

    /** One queued job. Every field is guarded as the book is. */
    static final class Entry {
        final JobKey key;
        long notBeforeNanos;
        /** A thread waits in {@code awaitTurn} for this entry's turn. */
        boolean waiting;
        Wait wait = Wait.NONE;
        /** Woken out of its timed wait because a join in front pushed it out of the window. */
        boolean pushedOut;
        /** Its not-before is a refused delay: it was refused for want of a slot, not failed. */
        boolean refusedWait;
        /**
         * A freed slot cut its refused delay short ({@code slotFreed}) and it has not reported a dial since (it may
         * hold its turn: {@link #leaveWithoutDialing} then passes the early turn on).
         */
        boolean hurried;
        /** The monitor's condition for this entry's thread; the book carries it and never uses it. */
        Condition turn;

        Entry(JobKey key, long notBeforeNanos) {
            this.key = key;
            this.notBeforeNanos = notBeforeNanos;
        }
    }

    private final int window;
    private final TreeMap<JobKey, Entry> queued = new TreeMap<>();
    private final HashSet<JobKey> dialers = new HashSet<>();
    private final Consumer<Entry> waker;
    private final ReentrantLock guard;
    private final IntSupplier elsewhere;

    /**
     * @param window how many queued jobs may dial at once, {@code >= 1}
     * @param waker wakes the thread waiting for an entry's turn; the book calls it under the guard
     * @param guard the lock every call must hold (asserted), or null when one thread owns the book (tests)
     */
    LaunchBook(int window, Consumer<Entry> waker, ReentrantLock guard) {
        this(window, waker, guard, () -> 0);
    }

    /**
     * A book whose request also has dial slots held outside it: {@code elsewhere} says how many (the monitor's
     * lock-free no-queue path). They count against the window like the book's own. The monitor keeps that number
     * still, under the guard, while anything is queued: only then does the window bound anyone.
     */
    LaunchBook(int window, Consumer<Entry> waker, ReentrantLock guard, IntSupplier elsewhere) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be >= 1, was " + window);
        }
        this.window = window;
        this.waker = waker;
        this.guard = guard;
        this.elsewhere = elsewhere;
    }

    int size() {
        assert held();
        return queued.size();
    }

    int dialing() {
        assert held();
        return dialers.size() + elsewhere.getAsInt();
    }

    List<JobKey> order() {
        assert held();
        return List.copyOf(queued.keySet());
    }

    /** The entry of {@code key}, or null if it is not queued. */
    Entry entry(JobKey key) {
        assert held();
        return queued.get(key);
    }

    /** Whether {@code key} is queued or holds a dial slot: whether a {@link #leave} of it would change anything. */
    boolean holds(JobKey key) {
        assert held();
        return queued.containsKey(key) || dialers.contains(key);
    }

    boolean isDialing(JobKey key) {
        assert held();
        return dialers.contains(key);
    }

    /**
     * No queue, no wait: if {@code key} (not queued) may dial without joining, it takes a dial slot and this returns
     * true; otherwise nothing changes.
     */
    boolean passes(JobKey key) {
        assert held();
        // A head map's isEmpty would make a view and count it, walking every queued key below this one.
        if (queued.isEmpty() || (queued.firstKey().compareTo(key) > 0 && dialing() < window)) {
            dialers.add(key);
            return true;
        }
        return false;
    }

    /** {@code key} (not queued) takes its place, ready to dial from {@code notBeforeNanos} on. */
    void join(JobKey key, long notBeforeNanos, long now) {
        assert held();
        queued.put(key, new Entry(key, notBeforeNanos));
        pushOutOfTheWindow();
        assert invariantsHold(now);
    }

    /**
     * The job of {@code key} was refused ({@code refusal}) or failed: it gives back its dial slot and keeps (or takes)
     * its place, ready to dial from {@code notBeforeNanos} on. Returns whether it joined (was not queued).
     */
    boolean requeue(JobKey key, long notBeforeNanos, boolean refusal, long now) {
        assert held();
        dialers.remove(key);
        Entry entry = queued.get(key);
        boolean joined = entry == null;
        if (joined) {
            entry = new Entry(key, notBeforeNanos);
            queued.put(key, entry);
            pushOutOfTheWindow();
        } else {
            entry.notBeforeNanos = notBeforeNanos;
        }
        entry.refusedWait = refusal;
        entry.hurried = false;
        wakeEligible(now);
        assert invariantsHold(now);
        return joined;
    }

    /**
     * The job of {@code key} is gone: its place and dial slot are free. A thread waiting for its turn is woken (it
     * returns holding nothing); so is whoever may now move. Idempotent.
     */
    void leave(JobKey key, long now) {
        assert held();
        Entry entry = queued.get(key);
        if (entry != null) {
            remove(entry, now);
            if (entry.waiting) {
                wake(entry);
            }
        } else if (dialers.remove(key)) {
            wakeEligible(now);
        }
        assert invariantsHold(now);
    }

    /** A dial slot held outside the book was given back: whoever in the window may now dial is woken. */
    void slotReturned(long now) {
        assert held();
        wakeEligible(now);
        assert invariantsHold(now);
    }

    /**
     * The job of {@code key} took its turn and stops without dialing: it leaves, as {@link #leave}, and an early turn
     * a freed slot gave it is passed on, as when it leaves before its turn.
     */
    void leaveWithoutDialing(JobKey key, long now) {
        assert held();
        if (queued.containsKey(key)) {
            // Its turn unused: it leaves as a job that never came back for it, so remove passes an early turn on.
            dialers.remove(key);
        }
        leave(key, now);
    }

    /** The thread waiting for {@code entry}'s turn gave up (it was interrupted): the job is no longer queued. */
    void remove(Entry entry, long now) {
        assert held();
        queued.remove(entry.key);
        // A job that holds its turn and leaves has dialed (a tier2 took it): the early turn, if it had one, was used.
        boolean dialed = dialers.remove(entry.key);
        boolean unused = entry.hurried && !dialed;
        if (unused) {
            // A freed slot's turn that it never used (it was cancelled, or its job ended, before it dialed): the next
            // refused job of the window takes it, as it would have had this one not been there. Before wakeEligible,
            // which then counts that job's wake-up against the free slots: a ready job behind it that the removal
            // brought into the window must not take the slot ahead of it.
            hurryFirstRefused(now);
        }
        wakeEligible(now);
    }

    /**
     * A job of the request ended on a tier2, so a slot is free there: the first job of the window that sits out a
     * refused delay may dial from {@code now}. Returns whether a job was let go early.
     */
    boolean slotFreed(long now) {
        assert held();
        boolean hurried = hurryFirstRefused(now);
        assert !hurried || invariantsHold(now);
        return hurried;
    }

    /** {@link #slotFreed}'s change, with no check of the invariants (a caller may be half-way through a change). */
    private boolean hurryFirstRefused(long now) {
        int position = 0;
        for (Entry e : queued.values()) {
            if (position++ >= window) {
                break;
            }
            if (e.refusedWait && !dialers.contains(e.key) && e.notBeforeNanos - now > 0) {
                e.notBeforeNanos = now;
                e.refusedWait = false;
                e.hurried = true;
                if (e.wait == Wait.TIMED) {
                    // Its delay is over: it looks again, and dials if a slot is free, else parks for one.
                    wake(e);
                }
                return true;
            }
        }
        return false;
    }

    /** A thread is about to wait for {@code entry}'s turn. */
    void waitFor(Entry entry) {
        assert held();
        entry.waiting = true;
    }

    /** The thread of {@code entry} has stopped waiting (its turn came, its key left, or it was interrupted). */
    void doneWaiting(Entry entry) {
        assert held();
        entry.waiting = false;
        entry.wait = Wait.NONE;
        entry.pushedOut = false;
    }

    /** The thread of {@code entry} woke up (by a signal or its timer) and is running again. */
    void awake(Entry entry) {
        assert held();
        entry.wait = Wait.NONE;
    }

    /**
     * What the thread of the queued {@code entry} does next: dial (it has taken a dial slot), wait until its
     * not-before time, or park untimed. {@code woken} says it has waited before: if it was woken and still can not
     * dial, whatever woke it may have been meant for a job behind it, so it passes the turn on before it parks.
     */
    Turn turn(Entry entry, boolean woken, long now) {
        assert held() && queued.get(entry.key) == entry;
        boolean inWindow = isInWindow(entry);
        entry.pushedOut = false;
        Turn turn;
        if (inWindow && entry.notBeforeNanos - now > 0) {
            entry.wait = Wait.TIMED;
            turn = Turn.TIMED;
        } else if (inWindow && dialing() < window) {
            dialers.add(entry.key);
            turn = Turn.DIAL;
        } else {
            if (woken) {
                wakeEligible(now);
            }
            entry.wait = Wait.PARKED;
            turn = inWindow ? Turn.PARKED : Turn.PARKED_OUTSIDE_THE_WINDOW;
        }
        assert turn == Turn.DIAL || invariantsHold(now);
        return turn;
    }

    private void wake(Entry entry) {
        entry.wait = Wait.SIGNALLED;
        waker.accept(entry);
    }

    /**
     * After a join: the entry it pushed out of the window gives up its timed wait, so that no timer wakes a job outside
     * the window. Only the entry just past the window can be in a timed wait there, and only if the join was in front
     * of it: a timed wait is only ever started inside the window, so the join need not say where it took place.
     */
    private void pushOutOfTheWindow() {
        int position = 0;
        for (Entry e : queued.values()) {
            if (position++ == window) {
                if (e.wait == Wait.TIMED) {
                    e.pushedOut = true;
                    wake(e);
                }
                return;
            }
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
        throw new AssertionError(entry.key + " is not queued"); // only a queued job's thread asks
    }

    /**
     * Wakes the parked entries in the window that may now move: each one whose not-before is still ahead (it has just
     * entered the window and will start its timed wait), and as many ready ones as there are free dial slots. Walks at
     * most {@code window} entries; never wakes an entry outside the window.
     */
    private void wakeEligible(long now) {
        int freeSlots = window - dialing();
        int position = 0;
        for (Entry e : queued.values()) {
            if (position++ >= window) {
                return;
            }
            if (e.wait == Wait.SIGNALLED && e.notBeforeNanos - now <= 0) {
                // Woken already, ready and in the window: it takes a free slot when it runs, so it counts against them.
                freeSlots--;
                continue;
            }
            if (e.wait != Wait.PARKED) {
                continue;
            }
            if (e.notBeforeNanos - now > 0) {
                wake(e);
            } else if (freeSlots > 0) {
                freeSlots--;
                wake(e);
            }
        }
    }

    private boolean held() {
        return guard == null || guard.isHeldByCurrentThread();
    }

    /**
     * Checks, in {@code O(queued)}, what holds between operations:
     * <ul>
     *   <li>each queued key has one entry, filed under its key;
     *   <li>no key both holds a dial slot and has a thread waiting for its turn;
     *   <li>an entry with no waiting thread is {@code NONE}; a {@code TIMED} entry is in the window; a pushed-out
     *       entry is {@code SIGNALLED};
     *   <li>a {@code PARKED} entry inside the window is ready (its not-before time has passed), and if one is, no dial
     *       slot is free that a woken thread will not look at: {@code dialing + signalled >= window}.
     * </ul>
     * For {@code assert invariantsHold(now)}, so that it costs nothing unless assertions are enabled.
     */
    boolean invariantsHold(long now) {
        assert held();
        int position = 0;
        int signalled = 0;
        boolean readyAndParkedInWindow = false;
        for (var mapping : queued.entrySet()) {
            Entry e = mapping.getValue();
            boolean inWindow = position++ < window;
            if (!e.key.equals(mapping.getKey())) {
                throw new AssertionError("entry of " + e.key + " filed under " + mapping.getKey());
            }
            if (!e.waiting && e.wait != Wait.NONE) {
                throw new AssertionError(e.key + " has no waiting thread but is recorded as " + e.wait);
            }
            if (e.waiting && dialers.contains(e.key)) {
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
        if (readyAndParkedInWindow && dialing() + signalled < window) {
            throw new AssertionError("a dial slot is free and a ready job in the window stays parked: "
                    + queued.keySet() + ", dialing " + dialers + " and " + elsewhere.getAsInt() + " elsewhere, signalled "
                    + signalled);
        }
        return true;
    }
}
