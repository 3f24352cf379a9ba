package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The state of every unit of one request that still matters: the segments of the look-ahead window
 * {@code [reading, reading + lookahead)}, where {@code reading} is the segment the client waits for.
 *
 * <h2>Why a window is enough</h2>
 * Every unit of a segment below {@code reading} is DONE (the client has read it, so its last stage is DONE, and a DONE
 * stage implies every stage under it is DONE, see below). Every unit of a segment at or past the window's end is
 * PENDING (nothing is scheduled there). So the board keeps, per segment of the window, two numbers in a
 * {@link SegmentRing} of {@code lookahead} slots, and per stage two segment cursors. Its size depends on the
 * look-ahead and the number of stages, never on the length of the request.
 *
 * <h2>What is kept</h2>
 * <ul>
 *   <li>{@code launched(s)}: the highest stage of segment {@code s} that is SCHEDULED or DONE, or -1. A unit
 *       {@code (s, k)} with {@code k <= launched(s)} never needs a job of its own: either it has one, or a job of a
 *       higher stage of the same segment produces its partials (shadowing).
 *   <li>{@code done(s)}: the highest DONE stage of segment {@code s}, or -1. Every stage {@code <= done(s)} is DONE:
 *       when {@code (s, k)} succeeds, every {@code (s, i < k)} is DONE too.
 *   <li>{@code frontier[k]}: the first segment {@code >= reading} whose stage {@code k} is not DONE. Because DONE
 *       stages form a prefix within a segment, {@code frontier} does not increase with {@code k}, and the dependency
 *       rule "{@code (s, k)} may run when every stage {@code i < k} is DONE for every segment {@code < s}" is just
 *       {@code k == 0 || s <= frontier[k - 1]}.
 *   <li>{@code cursor[k]}: no segment in {@code [reading, cursor[k])} needs a job of stage {@code k}. It only moves
 *       forward, except when the client's segment is re-run.
 *   <li>{@code checked} (resume only): every segment in {@code [reading, checked)} was looked up in the store; none
 *       at or past it is launched. Without resume it is the end of the request.
 * </ul>
 *
 * <h2>Cost</h2>
 * {@link #next()} looks at one candidate per stage (the segment under that stage's cursor) and takes the lowest
 * segment, then the highest stage: the launch order, in {@code O(stages)} plus the cursor moves, which are amortised
 * over the units launched (each cursor passes each segment once, plus at most a few re-runs). {@link #done} moves the
 * frontiers the same way.
 *
 * <p>Not thread-safe: {@link Scheduler} guards it with its lock, which every method asserts is held; every change
 * ends by asserting {@link #invariantsHold()} (both checked when assertions are on, as in the tests).
 */
final class UnitBoard {

    private final long end;
    private final int lastStage;
    private final SegmentRing ring;
    private final long[] cursor;
    private final long[] frontier;
    private long reading;
    // With resume, the segments in [reading, checked) were looked up in the store; those past it may not launch yet.
    private long checked;
    private final ReentrantLock guard;

    /**
     * @param plan the request's segments and stages
     * @param lookahead how many segments from {@code reading} on may have work scheduled, {@code >= 1}
     */
    UnitBoard(RequestPlan plan, long lookahead) {
        this(plan, lookahead, false, null);
    }

    /**
     * @param plan the request's segments and stages
     * @param lookahead how many segments from {@code reading} on may have work scheduled, {@code >= 1}
     * @param resume whether each segment must be {@linkplain #checked checked} in the store before it may launch
     * @param guard the lock every call must hold (asserted), or null when one thread owns the board (tests)
     */
    UnitBoard(RequestPlan plan, long lookahead, boolean resume, ReentrantLock guard) {
        this.guard = guard;
        if (lookahead < 1) {
            throw new IllegalArgumentException("lookahead must be >= 1, was " + lookahead);
        }
        this.end = plan.endSegment();
        this.lastStage = plan.lastStage();
        this.ring = new SegmentRing((int) Math.min(Math.min(lookahead, plan.segmentCount()), Integer.MAX_VALUE - 8));
        this.reading = plan.startSegment();
        this.cursor = new long[plan.stages()];
        this.frontier = new long[plan.stages()];
        Arrays.fill(cursor, reading);
        Arrays.fill(frontier, reading);
        this.checked = resume ? reading : end;
    }

    /** The segment the client reads next. */
    long reading() {
        assert guarded() : "the board is used without its lock";
        return reading;
    }

    /** The plan's last stage. */
    int lastStage() {
        return lastStage;
    }

    /** True once the client has read every segment. */
    boolean finished() {
        assert guarded() : "the board is used without its lock";
        return reading >= end;
    }

    /** One past the last segment that may have work scheduled now. */
    long windowEnd() {
        assert guarded() : "the board is used without its lock";
        return reading + Math.min(ring.size(), end - reading);
    }

    /** How many segments the board keeps state for: the look-ahead, capped by the request's length. */
    int trackedSegments() {
        assert guarded() : "the board is used without its lock";
        return ring.size();
    }

    /**
     * With resume, the next segment of the window to look up in the store, or -1 when every segment of the window
     * was looked up (always -1 without resume).
     */
    long segmentToCheck() {
        assert guarded() : "the board is used without its lock";
        return checked < windowEnd() ? checked : -1;
    }

    /**
     * Segment {@code segment}, the one {@link #segmentToCheck()} named, was looked up in the store: if
     * {@code stored}, it is DONE at every stage and will be delivered from the store; either way it may now launch.
     */
    void checked(long segment, boolean stored) {
        assert guarded() : "the board is used without its lock";
        if (segment != checked || segment >= windowEnd()) {
            throw new IllegalStateException("segment " + segment + " checked out of turn; next to check is "
                    + segmentToCheck());
        }
        checked++;
        if (stored) {
            done(new JobKey(segment, lastStage), UnitCounts.NONE);
        }
        assert invariantsHold() : this;
    }

    /** The next unit to launch in launch order, or null when none may run now. Does not mark it. */
    JobKey next() {
        assert guarded() : "the board is used without its lock";
        long windowEnd = Math.min(windowEnd(), checked);
        long bestSegment = Long.MAX_VALUE;
        int bestStage = -1;
        for (int k = lastStage; k >= 0; k--) {
            long c = cursor[k];
            while (c < windowEnd && ring.launched(c) >= k) {
                c++;
            }
            cursor[k] = c;
            if (c >= windowEnd || (k > 0 && c > frontier[k - 1])) {
                continue;
            }
            if (c < bestSegment) {
                bestSegment = c;
                bestStage = k;
            }
        }
        return bestStage < 0 ? null : new JobKey(bestSegment, bestStage);
    }

    /** A job for {@code key} was started. */
    void scheduled(JobKey key) {
        assert guarded() : "the board is used without its lock";
        ring.launch(requireInWindow(key.segment()), key.stage());
        assert invariantsHold() : this;
    }

    /**
     * What earlier jobs of {@code key} went through: {@link UnitCounts#NONE} but for a re-run of the last stage (the
     * only unit that runs again), which carries the counts of the unit's earlier jobs.
     */
    UnitCounts prior(JobKey key) {
        assert guarded() : "the board is used without its lock";
        UnitCounts counts = key.stage() == lastStage ? ring.lastStageCounts(requireInWindow(key.segment())) : null;
        return counts == null ? UnitCounts.NONE : counts;
    }

    /**
     * The job of {@code key} succeeded, leaving the unit with {@code counts} (its whole life so far): the unit and
     * every stage under it in the same segment are DONE. A late report for a segment the client has already read (a
     * shadowed lower stage ending after its segment was delivered) is ignored.
     */
    void done(JobKey key, UnitCounts counts) {
        assert guarded() : "the board is used without its lock";
        long segment = key.segment();
        if (segment < reading) {
            return;
        }
        requireInWindow(segment);
        int stage = key.stage();
        if (stage == lastStage) {
            ring.lastStageCounts(segment, counts);
        }
        ring.markDone(segment, stage);
        long windowEnd = windowEnd();
        for (int j = 0; j <= stage; j++) {
            long f = frontier[j];
            while (f < windowEnd && ring.done(f) >= j) {
                f++;
            }
            frontier[j] = f;
        }
        assert invariantsHold() : this;
    }

    /**
     * The job of {@code key} gave its worker up before it ran: if the unit is still needed and no higher stage of its
     * segment is launched, it is PENDING again and {@link #next()} will hand it out again (stage {@code key.stage()}'s
     * cursor goes back to its segment). A stage under it that no job runs is left marked launched: the relaunched job
     * produces its partials, as any higher stage does.
     */
    void withdrawn(JobKey key) {
        assert guarded() : "the board is used without its lock";
        long segment = key.segment();
        int stage = key.stage();
        if (!isNeeded(key) || segment >= windowEnd() || ring.launched(segment) != stage) {
            return;
        }
        ring.unlaunch(segment, stage);
        cursor[stage] = Math.min(cursor[stage], segment);
        assert invariantsHold() : this;
    }

    /**
     * False once nothing needs the unit of {@code key} any more: its segment was delivered, or a stage at or above
     * it in the same segment is DONE.
     */
    boolean isNeeded(JobKey key) {
        assert guarded() : "the board is used without its lock";
        long segment = key.segment();
        if (segment < reading) {
            return false;
        }
        return segment >= windowEnd() || ring.done(segment) < key.stage();
    }

    /**
     * The highest DONE stage of {@code segment}, or -1, read without the lock by the job that runs a unit of it: a
     * launched segment stays in the window until the client has read it, and only then may its slot stand for another
     * segment. So the value is {@code segment}'s at the moment of the read if the client, read after it, has not read
     * past {@code segment}; the caller must check that (the slot is cleared, a release, only after the client's
     * segment moved past it).
     */
    int doneStageOfItsJob(long segment) {
        return ring.doneAcquire(segment);
    }

    /**
     * The stage whose success {@code segment} (inside the window) waits for: the stage count if its last stage is DONE;
     * else the highest stage launched with a job of its own and not DONE, whose job is in flight (its success covers
     * every stage under it); else, with no job of it in flight, its last stage, which is the one its next launch runs
     * once every segment before it is done. A stage left launched by a withdrawal has no job of its own: the
     * relaunched higher stage covers it.
     */
    int stageAwaited(long segment) {
        assert guarded() : "the board is used without its lock";
        long s = requireInWindow(segment);
        int done = ring.done(s);
        if (done == lastStage) {
            return lastStage + 1;
        }
        int ownJob = ring.ownJob(s);
        return ownJob > done ? ownJob : lastStage;
    }

    /**
     * The first segment from {@code reading} on whose last stage is not DONE (its stage's frontier): every segment
     * before it, from {@code reading} on, has its output ready.
     */
    long readyEnd() {
        assert guarded() : "the board is used without its lock";
        return frontier[lastStage];
    }

    /** True when the last stage of the client's segment is DONE: its output can be read. */
    boolean readingOutputDone() {
        assert guarded() : "the board is used without its lock";
        return !finished() && ring.done(reading) == lastStage;
    }

    /** The client has read segment {@code reading}; the window moves up by one. */
    void delivered() {
        assert guarded() : "the board is used without its lock";
        if (!readingOutputDone()) {
            throw new IllegalStateException("segment " + reading + " delivered before its last stage was done");
        }
        ring.clear(reading);
        reading++;
        for (int k = 0; k <= lastStage; k++) {
            cursor[k] = Math.max(cursor[k], reading);
            frontier[k] = Math.max(frontier[k], reading);
        }
        assert invariantsHold() : this;
    }

    /** The output of the client's segment was missing: its last stage goes back to PENDING. */
    void rerun() {
        assert guarded() : "the board is used without its lock";
        if (!readingOutputDone()) {
            throw new IllegalStateException("segment " + reading + " re-run before its last stage was done");
        }
        ring.rerunLastStage(reading, lastStage);
        frontier[lastStage] = reading;
        cursor[lastStage] = Math.min(cursor[lastStage], reading);
        assert invariantsHold() : this;
    }

    private long requireInWindow(long segment) {
        assert guarded() : "the board is used without its lock";
        if (segment < reading || segment >= windowEnd()) {
            throw new IllegalArgumentException("segment " + segment + " is outside the window [" + reading + ", "
                    + windowEnd() + ")");
        }
        return segment;
    }

    private boolean guarded() {
        return guard == null || guard.isHeldByCurrentThread();
    }

    /**
     * The invariants of the class comment that cost O(stages), asserted after every change: stage {@code k}'s
     * frontier lies in the window, does not increase with {@code k}, stands on a segment whose stage {@code k} is
     * not DONE and just past one whose stage {@code k} is; each cursor lies in the window, just past a segment with
     * its stage launched; {@code -1 <= done <= launched <= lastStage} at the reader; with resume, the reader's
     * segment was looked up. {@link #windowInvariantsHold()} checks the whole window.
     */
    boolean invariantsHold() {
        long windowEnd = windowEnd();
        if (reading > end || checked < reading) {
            return false;
        }
        if (!finished() && !ring.invariantsHold(reading, lastStage)) {
            return false;
        }
        for (int k = 0; k <= lastStage; k++) {
            long f = frontier[k];
            long c = cursor[k];
            if (f < reading || f > windowEnd || k > 0 && f > frontier[k - 1]
                    || f < windowEnd && ring.done(f) >= k || f > reading && ring.done(f - 1) < k
                    || c < reading || c > windowEnd || c > reading && ring.launched(c - 1) < k) {
                return false;
            }
        }
        return true;
    }

    /** Every invariant over the whole window, O(look-ahead × stages): for tests. */
    boolean windowInvariantsHold() {
        if (!invariantsHold()) {
            return false;
        }
        long windowEnd = windowEnd();
        for (long s = reading; s < windowEnd; s++) {
            if (!ring.invariantsHold(s, lastStage)) {
                return false;
            }
            for (int k = 0; k <= lastStage; k++) {
                if (s < frontier[k] && ring.done(s) < k || s < cursor[k] && ring.launched(s) < k) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "UnitBoard[reading " + reading + ", window end " + windowEnd() + ", checked " + checked
                + ", frontier " + Arrays.toString(frontier) + ", cursor " + Arrays.toString(cursor) + "]";
    }
}
