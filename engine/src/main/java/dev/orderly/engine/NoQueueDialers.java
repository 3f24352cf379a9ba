package dev.orderly.engine;

import dev.orderly.api.JobKey;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The keys that hold a dial slot the {@link LaunchQueue} gave with no lock (its no-queue path): a set that, in the
 * common case, takes no lock, allocates nothing and writes one slot of its own per add and per remove.
 *
 * <p>Each key has one home slot, from its segment and stage: consecutive segments of one stage have consecutive
 * slots, so a request's jobs, which run within its look-ahead, seldom share one. A key whose home slot holds another
 * key goes to an overflow set (a {@link ConcurrentHashMap}'s), which costs what the queue's set did before.
 *
 * <p>The overflow set is made by the first key that needs it (compare-and-set, so every thread sees the same one), and
 * is then never replaced: a request whose keys all find their home slots makes none. No overflow yet reads as an
 * empty one.
 *
 * <p>Invariant: a key is in its home slot or in the overflow, never both. Thread-safe, under the queue's contract of
 * one live job per key: a key is added only by its job's thread, again only after it was removed, so {@code add}'s
 * check for a key already held is exact. A key may be removed by any thread ({@code leave}); when two race, one
 * removes it and the other finds nothing.
 */
final class NoQueueDialers {

    /** Home slots at most: past this many dialing at once, the rest go to the overflow. */
    static final int MAX_SLOTS = 1024;

    // Spreads the stages of one segment over the slots (an odd multiplier), while stage 0 maps segment s to slot s.
    static final int STAGE_SPREAD = 0x9E3779B9;

    private static final VarHandle OVERFLOW;

    static {
        try {
            OVERFLOW = MethodHandles.lookup().findVarHandle(NoQueueDialers.class, "overflow", Set.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AtomicReferenceArray<JobKey> home;
    private final int mask;
    // null until a key first finds its home slot taken (OVERFLOW, compare-and-set); never replaced after that
    private volatile Set<JobKey> overflow;

    /**
     * A set with home slots for about {@code dialers} keys at once (twice that, rounded up to a power of two, at most
     * {@link #MAX_SLOTS}).
     *
     * @throws IllegalArgumentException if {@code dialers < 1}
     */
    NoQueueDialers(int dialers) {
        if (dialers < 1) {
            throw new IllegalArgumentException("dialers must be at least 1, was " + dialers);
        }
        int wanted = (int) Math.min(MAX_SLOTS, 2L * dialers);
        this.home = new AtomicReferenceArray<>(Integer.highestOneBit(wanted - 1) << 1);
        this.mask = home.length() - 1;
    }

    /** Adds {@code key}; false if it is in the set already. */
    boolean add(JobKey key) {
        int i = slot(key);
        JobKey there = home.get(i);
        if (there == null) {
            // A key that went to the overflow while its home slot was taken is still there: not a second copy.
            if (inOverflow(key)) {
                return false;
            }
            if (home.compareAndSet(i, null, key)) {
                return true;
            }
            there = home.get(i);
        }
        return !key.equals(there) && overflow().add(key);
    }

    /** Removes {@code key}; false if it was not in the set (or another thread removed it first). */
    boolean remove(JobKey key) {
        int i = slot(key);
        JobKey there = home.get(i);
        if (there != null && there.equals(key)) {
            return home.compareAndSet(i, there, null);
        }
        Set<JobKey> o = overflow;
        return o != null && !o.isEmpty() && o.remove(key);
    }

    /** Whether {@code key} is in the set. */
    boolean contains(JobKey key) {
        return key.equals(home.get(slot(key))) || inOverflow(key);
    }

    private boolean inOverflow(JobKey key) {
        Set<JobKey> o = overflow;
        return o != null && !o.isEmpty() && o.contains(key);
    }

    /** The overflow set, made now if no key needed it before. */
    private Set<JobKey> overflow() {
        Set<JobKey> o = overflow;
        if (o == null) {
            OVERFLOW.compareAndSet(this, null, ConcurrentHashMap.<JobKey>newKeySet());
            o = overflow;
        }
        return o;
    }

    /** The number of home slots. */
    int slots() {
        return home.length();
    }

    /** How many keys are in the overflow now. */
    int overflowing() {
        Set<JobKey> o = overflow;
        return o == null ? 0 : o.size();
    }

    /** The home slot of {@code key}: its segment plus its stage times an odd spread, modulo the slots. */
    int slot(JobKey key) {
        return ((int) key.segment() + key.stage() * STAGE_SPREAD) & mask;
    }
}
