package dev.orderly.engine.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * What the board keeps per segment of the look-ahead window, in a ring of fixed size: the highest stage launched, the
 * highest stage DONE (each -1 for none), the highest stage launched by a job of its own (not left as launched by a
 * withdrawal, see {@link #unlaunch}) and the one such stage under it, and the counts of the last stage's earlier jobs
 * (null for none). Segment
 * {@code s} lives in slot {@code s % capacity}, the capacity being the size rounded up to a power of two (so a slot
 * is a mask, not a 64-bit division, on every look at the board; the window, {@code size} segments, never wraps onto
 * itself). A slot is {@linkplain #clear cleared} when its segment is delivered, ready for the segment
 * {@code capacity} further on. Its memory depends on the size only.
 *
 * <p>Not thread-safe: the {@link UnitBoard} that owns it is used under the scheduler's lock. The one exception is
 * {@link #doneAcquire}: every write of a DONE stage is a release, so a job may read its own segment's DONE stage
 * without the lock (see {@link UnitBoard#doneStageOfItsJob}).
 */
final class SegmentRing {

    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

    private final int size;
    // the capacity - 1: a slot is the segment's low bits
    private final int mask;
    private final int[] launched;
    private final int[] done;
    // The highest stage launched with a job of its own, or -1 (a withdrawal leaves the stages under its own launched,
    // covered by the relaunch, with no job of their own); and the one such stage that was highest before it, or -1.
    // Two levels, not the whole history: only the message of a deadline reads them (stageAwaited).
    private final int[] ownJob;
    private final int[] ownJobUnder;
    private final UnitCounts[] lastStageCounts;

    /**
     * @throws IllegalArgumentException if {@code size} is not in {@code [1, 2^30]} (the scheduler's look-ahead is at
     *     most 2^20)
     */
    SegmentRing(int size) {
        if (size < 1 || size > 1 << 30) {
            throw new IllegalArgumentException("a ring of " + size + " segments; it must be 1 to 2^30");
        }
        this.size = size;
        int capacity = Integer.highestOneBit(size - 1) << 1;
        capacity = Math.max(1, capacity);
        this.mask = capacity - 1;
        this.launched = new int[capacity];
        this.done = new int[capacity];
        this.ownJob = new int[capacity];
        this.ownJobUnder = new int[capacity];
        this.lastStageCounts = new UnitCounts[capacity];
        Arrays.fill(launched, -1);
        Arrays.fill(done, -1);
        Arrays.fill(ownJob, -1);
        Arrays.fill(ownJobUnder, -1);
    }

    int size() {
        return size;
    }

    /** The highest stage of {@code segment} SCHEDULED or DONE, or -1. */
    int launched(long segment) {
        return launched[slot(segment)];
    }

    /** The highest DONE stage of {@code segment}, or -1. */
    int done(long segment) {
        return done[slot(segment)];
    }

    /**
     * {@link #done} read without the owner's lock, with acquire semantics: it sees every write of a DONE stage
     * (each a release) made to the slot before, so it is the value of a segment the slot stood for at the moment of
     * the read. Which segment that was is for the caller to establish.
     */
    int doneAcquire(long segment) {
        return (int) INTS.getAcquire(done, slot(segment));
    }

    /** A job for {@code stage} of {@code segment} was started. */
    void launch(long segment, int stage) {
        int i = slot(segment);
        launched[i] = Math.max(launched[i], stage);
        if (stage > ownJob[i]) {
            ownJobUnder[i] = ownJob[i];
            ownJob[i] = stage;
        }
    }

    /**
     * The job of {@code stage}, the highest launched of {@code segment}, gave its worker up before it ran: the stage is
     * PENDING again; the one under it counts as launched (the relaunched job covers it), and nothing DONE changes. The
     * stage with a job of its own is again the one launched before it, if any.
     */
    void unlaunch(long segment, int stage) {
        int i = slot(segment);
        launched[i] = Math.max(done[i], stage - 1);
        if (ownJob[i] == stage) {
            ownJob[i] = ownJobUnder[i];
            ownJobUnder[i] = -1;
        }
    }

    /**
     * The highest stage of {@code segment} launched with a job of its own, or -1; when it is above {@link #done}, its
     * job is in flight. After two withdrawals with no launch between them it is -1, though a lower stage's job may
     * still run (the ring keeps two levels).
     */
    int ownJob(long segment) {
        return ownJob[slot(segment)];
    }

    /** {@code stage} of {@code segment}, and every stage under it, is DONE. */
    void markDone(long segment, int stage) {
        int i = slot(segment);
        INTS.setRelease(done, i, Math.max(done[i], stage));
        launched[i] = Math.max(launched[i], stage);
    }

    /** The last stage of {@code segment} goes back to PENDING; the stages under it stay DONE. */
    void rerunLastStage(long segment, int lastStage) {
        int i = slot(segment);
        INTS.setRelease(done, i, lastStage - 1);
        launched[i] = lastStage - 1;
        ownJob[i] = -1;
        ownJobUnder[i] = -1;
    }

    /** The counts of the last stage's earlier jobs of {@code segment}, or null. */
    UnitCounts lastStageCounts(long segment) {
        return lastStageCounts[slot(segment)];
    }

    void lastStageCounts(long segment, UnitCounts counts) {
        lastStageCounts[slot(segment)] = counts;
    }

    /** Forgets {@code segment}: its slot now stands for segment {@code segment + capacity}, untouched so far. */
    void clear(long segment) {
        int i = slot(segment);
        launched[i] = -1;
        INTS.setRelease(done, i, -1);
        ownJob[i] = -1;
        ownJobUnder[i] = -1;
        lastStageCounts[i] = null;
    }

    /** {@code -1 <= done <= launched <= lastStage} for {@code segment}; for the board's assert-only checks. */
    boolean invariantsHold(long segment, int lastStage) {
        int i = slot(segment);
        return done[i] >= -1 && done[i] <= launched[i] && launched[i] <= lastStage
                && ownJobUnder[i] < Math.max(ownJob[i], 0) && ownJob[i] <= launched[i];
    }

    private int slot(long segment) {
        return (int) segment & mask;
    }
}
