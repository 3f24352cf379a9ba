package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.util.Arrays;

/**
 * The state of every unit of one request that still matters: the segments of the look-ahead window
 * {@code [reading, reading + lookahead)}, where {@code reading} is the segment the client waits for.
 *
 * <h2>Why a window is enough</h2>
 * Every unit of a segment below {@code reading} is DONE (the client has read it, so its last stage is DONE, and a DONE
 * stage implies every stage under it is DONE, see below). Every unit of a segment at or past the window's end is
 * PENDING (nothing is scheduled there). So the board keeps, per segment of the window, two numbers in a ring buffer
 * of {@code lookahead} slots, and per stage two segment cursors. Its size depends on the look-ahead and the number of
 * stages, never on the length of the request.
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
 * </ul>
 *
 * <h2>Cost</h2>
 * {@link #next()} looks at one candidate per stage (the segment under that stage's cursor) and takes the lowest
 * segment, then the highest stage: the launch order, in {@code O(stages)} plus the cursor moves, which are amortised
 * over the units launched (each cursor passes each segment once, plus at most a few re-runs). {@link #done} moves the
 * frontiers the same way.
 *
 * <p>Not thread-safe: {@link Scheduler} guards it with its lock.
 */
final class UnitBoard {

    private final long end;
    private final int lastStage;
    private final int ring;
    private final int[] launched;
    private final int[] done;
    private final UnitCounts[] lastStageCounts;
    private final long[] cursor;
    private final long[] frontier;
    private long reading;
    // With resume, the segments in [reading, checked) were looked up in the store; those past it may not launch yet.
    private long checked;

    /**
     * @param plan the request's segments and stages
     * @param lookahead how many segments from {@code reading} on may have work scheduled, {@code >= 1}
     */
    UnitBoard(RequestPlan plan, long lookahead) {
        this(plan, lookahead, false);
    }

    /**
     * @param plan the request's segments and stages
     * @param lookahead how many segments from {@code reading} on may have work scheduled, {@code >= 1}
     * @param resume whether each segment must be {@linkplain #checked checked} in the store before it may launch
     */
    UnitBoard(RequestPlan plan, long lookahead, boolean resume) {
        if (lookahead < 1) {
            throw new IllegalArgumentException("lookahead must be >= 1, was " + lookahead);
        }
        this.end = plan.endSegment();
        this.lastStage = plan.lastStage();
        this.ring = (int) Math.min(Math.min(lookahead, plan.segmentCount()), Integer.MAX_VALUE - 8);
        this.launched = new int[ring];
        this.done = new int[ring];
        this.lastStageCounts = new UnitCounts[ring];
        Arrays.fill(launched, -1);
        Arrays.fill(done, -1);
        this.reading = plan.startSegment();
        this.cursor = new long[plan.stages()];
        this.frontier = new long[plan.stages()];
        Arrays.fill(cursor, reading);
        Arrays.fill(frontier, reading);
        this.checked = resume ? reading : end;
    }

    /** The segment the client reads next. */
    long reading() {
        return reading;
    }

    /** True once the client has read every segment. */
    boolean finished() {
        return reading >= end;
    }

    /** One past the last segment that may have work scheduled now. */
    long windowEnd() {
        return reading + Math.min(ring, end - reading);
    }

    /** How many segments the board keeps state for: the look-ahead, capped by the request's length. */
    int trackedSegments() {
        return launched.length;
    }

    /**
     * With resume, the next segment of the window to look up in the store, or -1 when every segment of the window
     * was looked up (always -1 without resume).
     */
    long segmentToCheck() {
        return checked < windowEnd() ? checked : -1;
    }

    /**
     * Segment {@code segment}, the one {@link #segmentToCheck()} named, was looked up in the store: if
     * {@code stored}, it is DONE at every stage and will be delivered from the store; either way it may now launch.
     */
    void checked(long segment, boolean stored) {
        if (segment != checked || segment >= windowEnd()) {
            throw new IllegalStateException("segment " + segment + " checked out of turn; next to check is "
                    + segmentToCheck());
        }
        checked++;
        if (stored) {
            done(new JobKey(segment, lastStage), UnitCounts.NONE);
        }
    }

    /** The next unit to launch in launch order, or null when none may run now. Does not mark it. */
    JobKey next() {
        long windowEnd = Math.min(windowEnd(), checked);
        long bestSegment = Long.MAX_VALUE;
        int bestStage = -1;
        for (int k = lastStage; k >= 0; k--) {
            long c = cursor[k];
            while (c < windowEnd && launched[slot(c)] >= k) {
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
        int i = slotOf(key.segment());
        launched[i] = Math.max(launched[i], key.stage());
    }

    /**
     * What earlier jobs of {@code key} went through: {@link UnitCounts#NONE} but for a re-run of the last stage (the
     * only unit that runs again), which carries the counts of the unit's earlier jobs.
     */
    UnitCounts prior(JobKey key) {
        UnitCounts counts = key.stage() == lastStage ? lastStageCounts[slotOf(key.segment())] : null;
        return counts == null ? UnitCounts.NONE : counts;
    }

    /**
     * The job of {@code key} succeeded, leaving the unit with {@code counts} (its whole life so far): the unit and every stage
     * under it in the same segment are DONE. A late report for a segment the client has already read (a shadowed
     * lower stage ending after its segment was delivered) is ignored.
     */
    void done(JobKey key, UnitCounts counts) {
        long segment = key.segment();
        if (segment < reading) {
            return;
        }
        int i = slotOf(segment);
        int stage = key.stage();
        if (stage == lastStage) {
            lastStageCounts[i] = counts;
        }
        done[i] = Math.max(done[i], stage);
        launched[i] = Math.max(launched[i], stage);
        long windowEnd = windowEnd();
        for (int j = 0; j <= stage; j++) {
            long f = frontier[j];
            while (f < windowEnd && done[slot(f)] >= j) {
                f++;
            }
            frontier[j] = f;
        }
    }

    /**
     * False once nothing needs the unit of {@code key} any more: its segment was delivered, or a stage at or above
     * it in the same segment is DONE.
     */
    boolean isNeeded(JobKey key) {
        long segment = key.segment();
        if (segment < reading) {
            return false;
        }
        return segment >= windowEnd() || done[slot(segment)] < key.stage();
    }

    /** The lowest stage of {@code segment} (inside the window) that is not DONE; the stage count if all are. */
    int lowestStageNotDone(long segment) {
        return done[slotOf(segment)] + 1;
    }

    /** True when the last stage of the client's segment is DONE: its output can be read. */
    boolean readingOutputDone() {
        return !finished() && done[slot(reading)] == lastStage;
    }

    /** The client has read segment {@code reading}; the window moves up by one. */
    void delivered() {
        if (!readingOutputDone()) {
            throw new IllegalStateException("segment " + reading + " delivered before its last stage was done");
        }
        int i = slot(reading);
        // The slot now stands for segment reading + ring, which nothing has touched yet.
        launched[i] = -1;
        done[i] = -1;
        lastStageCounts[i] = null;
        reading++;
        for (int k = 0; k <= lastStage; k++) {
            cursor[k] = Math.max(cursor[k], reading);
            frontier[k] = Math.max(frontier[k], reading);
        }
    }

    /** The output of the client's segment was missing: its last stage goes back to PENDING. */
    void rerun() {
        if (!readingOutputDone()) {
            throw new IllegalStateException("segment " + reading + " re-run before its last stage was done");
        }
        int i = slot(reading);
        done[i] = lastStage - 1;
        launched[i] = lastStage - 1;
        frontier[lastStage] = reading;
        cursor[lastStage] = Math.min(cursor[lastStage], reading);
    }

    private int slotOf(long segment) {
        if (segment < reading || segment >= windowEnd()) {
            throw new IllegalArgumentException("segment " + segment + " is outside the window [" + reading + ", "
                    + windowEnd() + ")");
        }
        return slot(segment);
    }

    private int slot(long segment) {
        return (int) (segment % ring);
    }
}
