package dev.orderly.engine.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Decides which unit of one request runs next (lowest segment first, then the highest stage whose dependencies
 * are done, within the look-ahead, at most {@code workers} alive) and tells the output walker when the client's
 * segment is ready.
 *
 * <p>The request's owner thread asks {@link #awaitNextJobs} for the units that may run and forks a job for each;
 * each job reports back once with {@link #jobEnded}; the output walker waits in {@link #awaitOutput} and reports
 * {@link #delivered} or {@link #rerun}. Nobody polls: the owner waits on {@code launchable}, the walker on
 * {@code outputReady}, and each is signalled by exactly the events that can let it move.
 *
 * <h2>Invariants (all guarded by {@code lock})</h2>
 * <ul>
 *   <li>{@code alive} is the number of jobs handed out by {@code awaitNextJob} and not yet reported through
 *       {@code jobEnded}; it never exceeds {@code workers}.
 *   <li>{@code board} holds the unit states of the look-ahead window only (see {@link UnitBoard}); nothing here grows
 *       with the length of the request.
 *   <li>{@code withdrawnCounts} (null until a job is first withdrawn) holds, for a unit whose job gave its worker up
 *       and that has not been handed out since, what that job left; the unit's next job starts from it. It keeps no
 *       unit of a segment the client had read at the last withdrawal, so it stays within the look-ahead window.
 *   <li>Once {@code stopped}, {@code awaitNextJob} returns null and {@code awaitOutput} returns STOPPED, for good.
 *   <li>Once {@code failed}, {@code awaitNextJob} returns null for good; the walker waits on until the request scope,
 *       told of the failure, stops the request.
 *   <li>With resume, no unit of a segment is handed out before the walker has looked the segment up in the store
 *       ({@link #checked}); a segment found there is DONE at every stage and never handed out.
 *   <li>Under an engine-wide job cap ({@code permits}), every alive job holds one permit: one is taken just before a
 *       unit is handed out, and released exactly when {@code alive} goes down. The unit is picked only once the
 *       permit is held, so the request's next permit always goes to its lowest launchable unit. The owner waits for
 *       a permit in {@link JobPermits#awaitPermit} with {@code lock} released, so jobs can end meanwhile; a permit
 *       handed to it that it can not use at once (nothing to launch, or stopped) is given on before it waits here.
 * </ul>
 *
 * <p>Every private helper asserts that it runs under {@code lock}, and every change ends by asserting
 * {@code invariantsHold()} (checked with {@code -ea}, as in the tests).
 *
 * <p>There is one owner thread waiting on {@code launchable} and one walker waiting on {@code outputReady}, so a
 * single {@code signal()} reaches the one thread that can act. This class is thread-safe.
 */
/*
 * Deliveries the board learns of late. The walker is the request's one serial path: with short jobs every job's end
 * takes this lock, and a walker that took it at each delivery set the pace of the whole request. So the walker
 * records each delivery in clientAt (a volatile only it writes) and takes the lock only when the board would fall
 * more than maxDeferred segments behind the client, for the last segment, or for the owner (below). Every
 * thread that takes the lock first applies what the walker recorded (applyDeliveries), so a delivery left behind is
 * applied by the next thread to take the lock: a job's end, the owner before it hands out a unit, the walker itself
 * before it waits for an output. Only the owner uses the window, and it applies every delivery before it looks; the
 * one thing to guard is an owner that waits on launchable while deliveries pile up behind it that nothing else may
 * come to apply: the owner writes ownerWaiting then reads clientAt before it waits, the walker writes clientAt then
 * reads ownerWaiting, and of two such volatile pairs one always sees the other's write (the owner does not wait, or
 * the walker takes the lock, applies and signals).
 *
 * So the board's reading may trail the client's by at most maxDeferred segments (fewer than ownerWakeAfter while the
 * owner waits, below), while no thread takes the lock: the window is then that much smaller, never larger, and the
 * owner never hands out a unit on it. The walker still knows which outputs are ready without the lock: readyEnd is
 * the board's last-stage frontier, and only the walker can make a ready output not ready (a re-run, which applies
 * every delivery first).
 *
 * A waiting owner is woken by the deliveries once a quarter of the window was read (ownerWakeAfter deliveries left
 * behind), not at each one, and then hands out that quarter under one hold of the lock. With short jobs and a client
 * that keeps up, the full window, not the workers, holds the owner back, and a wake per delivery made every segment
 * cost the owner a park and an unpark (with 100 requests of 200 segments on 10 workers each, half the engine's wall
 * time). The window is then up to a quarter smaller while the owner waits, never larger, as with any delivery left
 * behind; a job's end, or a walker that waits for an output, still applies every delivery and wakes the owner. The
 * same volatile pairs guard the wake: the owner waits only if it read fewer than ownerWakeAfter deliveries left
 * behind, and the walker takes the lock at the delivery that leaves that many.
 */
final class Scheduler {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition launchable = lock.newCondition();
    private final Condition outputReady = lock.newCondition();
    private final int workers;
    private final long startSegment;
    private final int stages;
    private final int lastStage;
    // Its own lock, taken inside this one (never the other way round).
    private final JobPermits permits;

    @GuardedBy("lock")
    private final UnitBoard board;
    @GuardedBy("lock")
    private int alive;
    // The counts of units whose job was withdrawn, for their next job; made at the first withdrawal (rare: a re-run
    // with every worker taken). Entries of segments the client has read are dropped at the next withdrawal.
    @GuardedBy("lock")
    private Map<JobKey, UnitCounts> withdrawnCounts;
    /** Under an engine-wide cap: where the client's re-run stands for a place since the last {@link #rerun}. */
    private enum RerunPlace {
        /** No re-run waits for a place (always so without a cap). */
        NONE,
        /**
         * The re-run waits for a place a job of this request is to free: the next job to end keeps its place for it,
         * as a withdrawn job does, instead of giving it to the fair-share queue.
         */
        WANTED,
        /**
         * A place was kept for the re-run (a job's end or withdrawal) or the re-run was handed out. A job withdrawn
         * for it that reports later (a withdrawal is reported when the job next stops) frees a place the re-run does
         * not need: it goes to the fair-share queue.
         */
        HAS_ONE
    }

    @GuardedBy("lock")
    private RerunPlace rerunPlace = RerunPlace.NONE;
    // Written under the lock, only ever from false to true; volatile for isNeededByItsJob, which reads them without it.
    private volatile boolean stopped;
    private volatile boolean failed;
    // board.reading(), written under the lock whenever it moves: the segment the board has seen delivered up to
    private volatile long reading;
    // The client's segment: every segment before it was delivered. Written by the walker only, without the lock; the
    // board catches up with it in applyDeliveries (see the note above). A job reads it at every dial.
    private volatile long clientAt;
    // The board's last-stage frontier: every segment from reading up to it has its output ready. Written under the lock
    // in changed(); awaitOutput reads it without the lock.
    private volatile long readyEnd;
    // True while the owner is about to wait, or waits, on launchable: the delivery that leaves ownerWakeAfter
    // deliveries behind then takes the lock and applies.
    private volatile boolean ownerWaiting;
    // How far the board may trail the client: a sixteenth of the look-ahead, at most MAX_DEFERRED (0: never)
    private final long maxDeferred;
    // How many deliveries left behind wake the owner waiting on launchable: a quarter of the look-ahead, at least 1
    private final long ownerWakeAfter;
    private final long endSegment;
    // Run by the first stop(), with no lock held; set once, before any thread of the request starts.
    private volatile Runnable onStop = () -> { };

    /** The most deliveries the board may trail the client by, whatever the look-ahead. */
    static final int MAX_DEFERRED = 32;

    /**
     * @param plan the request's segments, stages and workers
     * @param lookahead how many segments from the client's on may have work scheduled, {@code >= 1}
     */
    Scheduler(RequestPlan plan, long lookahead) {
        this(plan, lookahead, false);
    }

    /**
     * @param resume whether each segment is looked up in the store (by the walker, through {@link #segmentToCheck}
     *     and {@link #checked}) before any of its units may launch
     */
    Scheduler(RequestPlan plan, long lookahead, boolean resume) {
        this(plan, lookahead, resume, JobPermits.UNLIMITED);
    }

    /**
     * @param permits the request's permits under the engine-wide job cap, or {@link JobPermits#UNLIMITED}
     */
    Scheduler(RequestPlan plan, long lookahead, boolean resume, JobPermits permits) {
        this.permits = permits;
        this.workers = plan.workers();
        this.startSegment = plan.startSegment();
        this.stages = plan.stages();
        this.lastStage = plan.lastStage();
        this.board = new UnitBoard(plan, lookahead, resume, lock);
        this.reading = plan.startSegment();
        this.clientAt = plan.startSegment();
        this.readyEnd = plan.startSegment();
        this.endSegment = plan.endSegment();
        this.maxDeferred = Math.min(lookahead / 16, MAX_DEFERRED);
        this.ownerWakeAfter = Math.max(1, lookahead / 4);
    }

    /** With resume, the next segment of the look-ahead window to look up in the store, or -1 if none. */
    long segmentToCheck() {
        lock.lock();
        try {
            applyDeliveries();
            return board.segmentToCheck();
        } finally {
            lock.unlock();
        }
    }

    /** Segment {@code segment} was looked up in the store: {@code stored} ones are DONE, the rest may launch. */
    void checked(long segment, boolean stored) {
        lock.lock();
        try {
            applyDeliveries();
            board.checked(segment, stored);
            changed();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The most segments of look-ahead a request may have: the board keeps about 16 bytes per segment of it (rounded
     * up to a power of two), so this is 16 MiB, and a look-ahead that long is far beyond what any fleet can work on
     * at once.
     */
    static final long MAX_LOOKAHEAD = 1 << 20;

    /**
     * The look-ahead {@code ceil(lookaheadFactor * workers)}, at least 1.
     *
     * @throws IllegalArgumentException if it exceeds {@link #MAX_LOOKAHEAD}
     */
    static long lookahead(double lookaheadFactor, int workers) {
        double product = lookaheadFactor * workers;
        double segments = Math.max(1, Math.ceil(product));
        if (segments > 1 && product - (segments - 1) < 1e-9 * segments) {
            // Just past a whole number in binary: perhaps only there. A factor is written in decimal, and 1.1 * 100 is
            // 110.00000000000001 in a double, whose ceiling is one segment past ceil(1.1 * 100) = 110. Asked again in
            // decimal (Double.toString gives the shortest decimal that is this double), here only, so the usual
            // factors cost nothing more.
            BigDecimal exact = new BigDecimal(Double.toString(lookaheadFactor)).multiply(BigDecimal.valueOf(workers));
            if (exact.compareTo(BigDecimal.valueOf(segments - 1)) <= 0) {
                segments -= 1;
            }
        }
        if (segments > MAX_LOOKAHEAD) {
            throw new IllegalArgumentException("the look-ahead ceil(lookaheadFactor " + lookaheadFactor + " * workers "
                    + workers + ") = " + String.format(java.util.Locale.ROOT, "%.0f", segments)
                    + " segments exceeds the bound of " + MAX_LOOKAHEAD
                    + " segments the scheduler keeps state for; lower lookaheadFactor or workers");
        }
        return (long) segments;
    }

    /**
     * The most stages a plan may have: the board keeps two cursors per stage and looks at one candidate per stage at
     * each launch, so this bounds both its memory (1 MiB) and a launch's cost. Real plans have a handful.
     */
    static final int MAX_STAGES = 1 << 16;

    /**
     * Checks the plan's {@code stages} against {@link #MAX_STAGES}.
     *
     * @throws IllegalArgumentException naming the stages and the bound when it is exceeded
     */
    static void checkStages(int stages) {
        if (stages > MAX_STAGES) {
            throw new IllegalArgumentException("the plan's " + stages + " stages exceed the bound of " + MAX_STAGES
                    + " stages the scheduler keeps state for");
        }
    }

    /**
     * How many units a scope's owner asks {@link #awaitNextJobs} for at once: enough that one lock hold serves the
     * workers short jobs free between two wakes of the owner, few enough that the first fork of a batch is not held up
     * behind the board's work for the rest.
     */
    static final int LAUNCH_BATCH = 32;

    /** The request's workers: never more jobs alive at once, so never more units handed out at once. */
    int workers() {
        return workers;
    }

    /**
     * Waits until a worker is free, a unit may run and (under an engine-wide cap) the request holds a permit for it,
     * marks it SCHEDULED and returns it; returns null once every segment was delivered or the request was
     * {@linkplain #stop() stopped}. One unit of {@link #awaitNextJobs}.
     */
    Launch awaitNextJob() throws InterruptedException {
        JobKey[] key = new JobKey[1];
        UnitCounts[] prior = new UnitCounts[1];
        return awaitNextJobs(key, prior) == 0 ? null : new Launch(key[0], prior[0]);
    }

    /**
     * Waits as {@link #awaitNextJob} does, then hands out as many units as may run now, up to {@code keys.length}, in
     * launch order and under one hold of the lock: each is marked SCHEDULED, its key put in {@code keys} and what its
     * earlier jobs went through at the same index of {@code priors}, from index 0. Returns how many; 0 once every
     * segment was delivered or the request was {@linkplain #stop() stopped}.
     *
     * <p>The owner forks the jobs of the units it was handed, in order, before it asks again. When jobs end faster than
     * the owner forks (short jobs), it finds many workers free at each wake, and one lock hold for all of them is what
     * keeps it off the lock the ending jobs take. Under an engine-wide cap it hands out one unit at a time: the request
     * then waits for each permit in its turn among the other requests, as the cap's queue expects.
     */
    int awaitNextJobs(JobKey[] keys, UnitCounts[] priors) throws InterruptedException {
        if (keys.length == 0 || priors.length != keys.length) {
            throw new IllegalArgumentException("keys and priors must have the same length, at least 1, had "
                    + keys.length + " and " + priors.length);
        }
        int limit = permits == JobPermits.UNLIMITED ? keys.length : 1;
        while (true) {
            lock.lock();
            try {
                applyDeliveries();
                while (true) {
                    if (stopped || failed || board.finished()) {
                        permits.withdraw();
                        return 0;
                    }
                    int handedOut = 0;
                    boolean permitWanted = false;
                    while (handedOut < limit && alive < workers) {
                        JobKey key = board.next();
                        if (key == null) {
                            break;
                        }
                        if (!permits.take()) {
                            permitWanted = true;
                            break;
                        }
                        board.scheduled(key);
                        alive++;
                        if (rerunPlace == RerunPlace.WANTED && key.segment() == board.reading()) {
                            // The client's segment has its place: nothing is kept for its re-run any more. (The state
                            // first: without a cap it is never WANTED, and the launch makes no other look.)
                            rerunPlace = RerunPlace.HAS_ONE;
                        }
                        keys[handedOut] = key;
                        priors[handedOut++] = withdrawnCounts == null ? board.prior(key) : priorOf(key);
                    }
                    if (handedOut > 0) {
                        assert invariantsHold() : this;
                        return handedOut;
                    }
                    if (permitWanted) {
                        break;
                    }
                    // Nothing to launch now: a permit handed to this request meanwhile goes to another at once.
                    permits.withdraw();
                    // From here the walker takes the lock at the delivery that leaves ownerWakeAfter behind (see the
                    // note above); what it left before is applied at the loop's top.
                    ownerWaiting = true;
                    try {
                        if (clientAt - reading < ownerWakeAfter) {
                            launchable.await();
                        }
                    } finally {
                        ownerWaiting = false;
                    }
                    applyDeliveries();
                }
            } finally {
                lock.unlock();
            }
            // Outside this lock, so that jobs can end (and free permits) while the owner waits for one.
            permits.awaitPermit();
        }
    }

    /**
     * The job of {@code key} has ended, well ({@code succeeded}) or not, leaving the unit with {@code counts} (which
     * include earlier jobs of the unit). Its worker is free.
     */
    void jobEnded(JobKey key, boolean succeeded, UnitCounts counts) {
        lock.lock();
        try {
            applyDeliveries();
            alive--;
            if (succeeded) {
                board.done(key, counts);
            }
            // A request with its next unit ready takes its turn for the permit this job frees, with the others.
            // (Only under a cap: with none, nothing is shared and a job's end costs no look at the board.)
            if (permits != JobPermits.UNLIMITED) {
                if (rerunPlace == RerunPlace.WANTED && !stopped && !failed) {
                    // The client's re-run waits for a place its own request frees: this one, as the guide's "that place
                    // stays with the request" says of a withdrawn job's (given to the queue, another request could
                    // take it, and the client would wait for the request's next job to end).
                    rerunPlace = RerunPlace.HAS_ONE;
                    permits.keep();
                } else {
                    permits.release(!stopped && !failed && !board.finished() && board.next() != null);
                }
            }
            changed();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A job has ended by throwing: it fails the request (or the request was cancelled). Its worker is free, but from
     * now on nothing more is handed out, so no job is forked and dialed in the moment before the request scope, told
     * of the failure by the job's thread, cancels the request.
     *
     * <p>Not {@link #stop()}: that would let the walker return as if the request had ended well, and the scope could
     * end the request before the failure reached it.
     */
    void jobFailed() {
        failRequest(1);
    }

    /**
     * The owner could not fork the jobs of the last {@code units} units it was handed (no thread could be made for the
     * first of them): they count as jobs that failed the request. Their workers and, under an engine-wide cap, their
     * permits are free at once, and nothing more is handed out, as after {@link #jobFailed()}.
     */
    void notForked(int units) {
        if (units <= 0) {
            throw new IllegalArgumentException("units must be at least 1, was " + units);
        }
        failRequest(units);
    }

    /** {@code jobs} alive jobs failed the request: their workers and permits are free, and nothing more is handed out. */
    private void failRequest(int jobs) {
        lock.lock();
        try {
            applyDeliveries();
            alive -= jobs;
            for (int i = 0; i < jobs; i++) {
                permits.release();
            }
            failed = true;
            // The request's share of the engine-wide cap goes to the others at once; its owner stops waiting for one.
            permits.close();
            changed();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Every thread of the request has ended. A unit still counted alive now was handed out and its job never started:
     * the owner forked it into a scope already cancelled (by a failure, the walker's end or an interrupt), and a
     * cancelled scope starts nothing and says nothing. Its worker and, under an engine-wide cap, its permit are free,
     * as if its job had failed; only then may the request's permits be closed for good.
     */
    void everyThreadEnded() {
        lock.lock();
        try {
            applyDeliveries();
            for (; alive > 0; alive--) {
                permits.release();
            }
            assert invariantsHold() : this;
        } finally {
            lock.unlock();
        }
    }

    /** What the earlier jobs of {@code key}, a unit handed out now, went through: a withdrawn job's counts, if any. */
    @GuardedBy("lock")
    private UnitCounts priorOf(JobKey key) {
        assert lock.isHeldByCurrentThread();
        UnitCounts withdrawn = withdrawnCounts.remove(key);
        return withdrawn != null ? withdrawn : board.prior(key);
    }

    /** How a wait for the client's output ended. */
    enum OutputWait {
        /** The last stage of the client's segment is DONE: its output can be read. */
        READY,
        /** The request was stopped (failed or cancelled elsewhere). */
        STOPPED,
        /** The request's deadline passed first. */
        DEADLINE_PASSED
    }

    /**
     * Waits until the last stage of {@code segment}, the client's segment, is DONE, the request is stopped, or
     * {@code deadline} passes (a deadline already past is reported even when the output is ready).
     */
    OutputWait awaitOutput(long segment, Deadline deadline) throws InterruptedException {
        // With the output ready when asked (the walker mostly trails its jobs), no lock: only the walker itself can
        // make it not ready (a re-run), so it is still ready when stopped is read; the answer is the one the lock
        // would give at that read. Anything else (stopped, a deadline, not ready, the wrong segment) takes the lock
        // and is answered there.
        if (readyWithoutLock(segment, deadline)) {
            return OutputWait.READY;
        }
        // Not ready: the walker lets the threads ready on its carrier run once before it looks again, as the owner
        // does. They are mostly the request's jobs about to end, the one it waits for among them, so the second look
        // often finds the output ready, and the walker goes on without a wait (a node) and a wake-up (a task on the
        // carrier). It waits for nothing: it runs again as soon as they have.
        Thread.yield();
        if (readyWithoutLock(segment, deadline)) {
            return OutputWait.READY;
        }
        lock.lock();
        try {
            applyDeliveries();
            requireReading(segment);
            long remaining = deadline.remainingNanos();
            while (true) {
                if (stopped) {
                    return OutputWait.STOPPED;
                }
                // Before the output: a deadline already past is reported even when the output is ready.
                if (remaining <= 0) {
                    return OutputWait.DEADLINE_PASSED;
                }
                if (board.readingOutputDone()) {
                    return OutputWait.READY;
                }
                remaining = deadline.isSet() ? outputReady.awaitNanos(remaining) : awaitForever();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The output of {@code segment}, the client's, is ready and nothing stops its delivery, as read with no lock. */
    private boolean readyWithoutLock(long segment, Deadline deadline) {
        return segment == clientAt && segment < readyEnd && !stopped && deadline.remainingNanos() > 0;
    }

    @GuardedBy("lock")
    private long awaitForever() throws InterruptedException {
        assert lock.isHeldByCurrentThread();
        outputReady.await();
        return Long.MAX_VALUE;
    }

    /**
     * What the client's segment waits for, in words: {@code segment 41 waiting for stage 1}, the stage of the plan
     * whose success it waits for (the highest of its stages in flight, else its last stage); or,
     * when its output is ready and the client has not taken it yet, {@code segment 41 ready, the client still on
     * segment 40}. A unit that could launch but has no place under the engine-wide job cap says so: {@code segment 41
     * waiting for stage 1, launchable, but no place free under the engine-wide job cap of 32 (maxConcurrentJobs)}.
     */
    String waitingFor() {
        return waitingFor(true);
    }

    /**
     * {@link #waitingFor()}, told whether the deadline passed while the client was busy ({@code clientBusy}: found
     * past after a delivery) or while the walker itself was (a store read or look-up the deadline cut short): a ready
     * segment is then said to be not yet handed to the client, since the client had returned from its segment long
     * before, and "the client still on segment S-1" would send the reader to the wrong code.
     */
    String waitingFor(boolean clientBusy) {
        lock.lock();
        try {
            applyDeliveries();
            if (board.finished()) {
                return "every segment delivered";
            }
            long client = board.reading();
            int stage = board.stageAwaited(client);
            if (stage >= stages) {
                return "segment " + client + " ready, " + (clientBusy && client > startSegment
                        ? "the client still on segment " + (client - 1) : "not yet handed to the client");
            }
            String waiting = "segment " + client + " waiting for stage " + stage;
            JobKey next = board.next();
            if (next != null && next.segment() == client && alive < workers && permits.wouldWait()) {
                // A worker is free and the unit may run: the places under the engine-wide cap, all taken, are what it
                // waits for. Said so, or the reader looks at a fleet that was never dialed.
                return waiting + ", launchable, but no place free under the " + permits + " (maxConcurrentJobs)";
            }
            return waiting;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The jobs of the last stage of {@code segment}, the client's segment, that succeeded so far: 0 for a segment
     * found in the store, more than 1 after re-runs.
     */
    int successfulJobsOf(long segment) {
        lock.lock();
        try {
            applyDeliveries();
            requireReading(segment);
            return board.prior(new JobKey(segment, board.lastStage())).successes();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The client has read {@code segment}; the look-ahead window moves up by one, now or when the next thread takes
     * the lock (see the note at the head of the class). Called by the walker only.
     */
    void delivered(long segment) {
        long client = clientAt;
        if (segment != client) {
            throw new IllegalStateException("the client reads segment " + client + ", not " + segment);
        }
        if (segment >= readyEnd) {
            throw new IllegalStateException("segment " + segment + " delivered before its last stage was done");
        }
        clientAt = segment + 1;
        long behind = segment + 1 - reading;
        if (segment + 1 < endSegment && (ownerWaiting ? behind < ownerWakeAfter : behind <= maxDeferred)) {
            return;
        }
        lock.lock();
        try {
            applyDeliveries();
        } finally {
            lock.unlock();
        }
    }

    /** Moves the board's reading up to the client's: every segment before {@code clientAt} was delivered. */
    @GuardedBy("lock")
    private void applyDeliveries() {
        assert lock.isHeldByCurrentThread();
        long client = clientAt;
        if (board.reading() >= client) {
            return;
        }
        do {
            board.delivered();
        } while (board.reading() < client);
        reading = board.reading();
        changed();
    }

    /**
     * The output of {@code segment} was missing after its job succeeded: its last stage runs again. Returns whether
     * every worker is taken, or (under an engine-wide cap) no permit is to be had while the request has jobs alive:
     * then the re-run, which the client waits for, must not wait for a job to end, and the caller has the highest job
     * that is not on a tier2 give its worker up ({@link #jobWithdrawn}, which keeps its permit for the re-run).
     * Otherwise a permit free at the cap is the re-run's at once, held for it until the owner launches it (taken by
     * another request first, it is as if none was free).
     */
    boolean rerun(long segment) {
        lock.lock();
        try {
            applyDeliveries();
            requireReading(segment);
            board.rerun();
            changed();
            if (alive >= workers) {
                // The job that frees the worker frees a place under a cap too: it is the re-run's (jobEnded).
                rerunPlace = permits != JobPermits.UNLIMITED ? RerunPlace.WANTED : RerunPlace.NONE;
                return true;
            }
            if (permits.wouldWait()) {
                // Under an engine-wide cap with no permit to be had, a worker of its own is what the re-run can use.
                rerunPlace = alive > 0 ? RerunPlace.WANTED : RerunPlace.NONE;
                return alive > 0;
            }
            // A permit is free (or handed to this request): the re-run's from now, kept for it as a withdrawn job's is.
            // Left free until the owner comes round, another request's owner could take it first, and the re-run would
            // wait in the queue with no job of its own asked to give a place up.
            if (permits.take()) {
                permits.keep();
                rerunPlace = RerunPlace.HAS_ONE;
                return false;
            }
            // The look above and this take are two holds of the cap's lock: another request's owner took the place in
            // between (this request now waits for one). As if none had been free: a job of its own gives one up.
            boolean wanted = alive > 0 && !stopped && !failed;
            rerunPlace = wanted ? RerunPlace.WANTED : RerunPlace.NONE;
            return wanted;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The job of {@code key} gave its worker up before its next dial (to the re-run of the client's segment), leaving
     * the unit with {@code counts}: its unit goes back to PENDING, to be launched again later from those counts; its
     * worker is free.
     */
    void jobWithdrawn(JobKey key, UnitCounts counts) {
        lock.lock();
        try {
            applyDeliveries();
            if (withdrawnCounts == null) {
                withdrawnCounts = new HashMap<>();
            }
            long client = board.reading();
            withdrawnCounts.keySet().removeIf(unit -> unit.segment() < client);
            withdrawnCounts.put(key, counts);
            alive--;
            board.withdrawn(key);
            if (rerunPlace == RerunPlace.HAS_ONE && !stopped && !failed) {
                // The re-run got a place while this job went on to its next stop (another job of the request ended
                // and kept its place for it, or it was handed out): kept too, this one would be a second place for
                // one re-run, held while requests with fewer jobs wait. It goes to the queue, as a job's end does.
                permits.release(!board.finished() && board.next() != null);
            } else {
                // Withdrawn for the client's re-run: its permit stays with this request, for that re-run.
                rerunPlace = RerunPlace.HAS_ONE;
                permits.keep();
            }
            changed();
        } finally {
            lock.unlock();
        }
    }

    /**
     * No more jobs: the request failed or was cancelled. Wakes the owner and the walker; the first call then runs what
     * {@link #whenStopped} set (with no lock held).
     */
    void stop() {
        boolean first;
        lock.lock();
        try {
            applyDeliveries();
            first = !stopped;
            stopped = true;
            permits.close();
            launchable.signalAll();
            outputReady.signalAll();
        } finally {
            lock.unlock();
        }
        if (first) {
            onStop.run();
        }
    }

    /**
     * What the first {@link #stop()} runs once the request is marked stopped: the request's running jobs are
     * cancelled (their calls closed), so a call that answers close but not an interrupt does not hold their places.
     * Set before the request starts.
     */
    void whenStopped(Runnable action) {
        onStop = action;
    }

    /**
     * False once nothing needs the unit of {@code key}: its segment was delivered, a higher stage is done, or the
     * request stopped (failed, cancelled, past its deadline, or every segment delivered). A job asks before every
     * dial and after every wait, so a stopped request dials nothing whatever its client does with an interrupt.
     */
    boolean isNeeded(JobKey key) {
        lock.lock();
        try {
            applyDeliveries();
            return !stopped && !failed && board.isNeeded(key);
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@link #isNeeded} asked by the job that runs the unit of {@code key}, before it dials, after every wait and when
     * a dial returns, with no lock taken. While that job runs, its segment was launched, so it lies under the window's
     * end for good, and the unit stays needed until the request stops, the client reads past its segment, or a stage
     * at or above it in its segment is DONE (only a lower stage: a unit of the last stage has no stage above it, and
     * only its own job, one live job per unit, can make it DONE). Each of those is a volatile or acquire read of a
     * value that moves one way only; the DONE stage is read before the client's segment, so a slot of the board
     * already handed to a later segment is never taken for this one (see {@link UnitBoard#doneStageOfItsJob}). The
     * answer is the one {@code isNeeded} would have given at the moment of the last read.
     */
    // The board's one read without the lock (UnitBoard.doneStageOfItsJob, an acquire read; see above).
    @SuppressWarnings("GuardedBy")
    boolean isNeededByItsJob(JobKey key) {
        long segment = key.segment();
        int stage = key.stage();
        int doneStage = stage == lastStage ? -1 : board.doneStageOfItsJob(segment);
        return !stopped && !failed && segment >= clientAt && doneStage < stage;
    }

    /**
     * True once the request was {@linkplain #stop() stopped} (cancelled, or ended by its walker): an interrupt a job
     * meets from then on is the request's.
     */
    boolean stopped() {
        return stopped;
    }

    /** The segment the client waits for now; a dial carries it so that a tier2 can rank the job. */
    long reading() {
        return clientAt;
    }

    /**
     * Diagnostic: the segment the board has seen delivered up to, read without the lock; it trails {@link #reading()}
     * by the deliveries no thread has applied yet (see the note at the head of the class).
     */
    long boardReading() {
        return reading;
    }

    /** Diagnostic: the number of segments whose unit states are kept (bounded by the look-ahead). */
    int trackedSegments() {
        lock.lock();
        try {
            applyDeliveries();
            return board.trackedSegments();
        } finally {
            lock.unlock();
        }
    }

    /** Diagnostic: jobs alive right now, never more than the workers. */
    int alive() {
        lock.lock();
        try {
            applyDeliveries();
            return alive;
        } finally {
            lock.unlock();
        }
    }

    /**
     * After a change of the board or of {@code alive}: wakes the walker if its output is ready and the owner, which
     * may now launch, and checks the invariants.
     */
    @GuardedBy("lock")
    private void changed() {
        assert lock.isHeldByCurrentThread();
        long ready = board.readyEnd();
        if (readyEnd != ready) {
            readyEnd = ready;
        }
        if (board.readingOutputDone()) {
            outputReady.signal();
        }
        launchable.signal();
        assert invariantsHold() : this;
    }

    /** {@code 0 <= alive <= workers}, and the board's own invariants. Under the lock. */
    @GuardedBy("lock")
    private boolean invariantsHold() {
        assert lock.isHeldByCurrentThread();
        return alive >= 0 && alive <= workers && reading == board.reading()
                && readyEnd == board.readyEnd() && clientAt >= reading
                && board.invariantsHold();
    }

    @Override
    public String toString() {
        // Under the lock: the board's state is guarded by it (and checks so with -ea); reentrant for assert messages.
        lock.lock();
        try {
            return "Scheduler[alive " + alive + " of " + workers + (stopped ? ", stopped" : "")
                    + (failed ? ", failed" : "") + ", " + board + "]";
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private void requireReading(long segment) {
        assert lock.isHeldByCurrentThread();
        if (segment != board.reading()) {
            throw new IllegalStateException("the client reads segment " + board.reading() + ", not " + segment);
        }
    }
}
