package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running job: its thread and, while it waits on a tier2, its call. The call is closed exactly once, by
 * whichever comes first: the job when it is done with it, or {@link #cancel()}.
 *
 * <p>A handle is its job's {@linkplain UnitCounts.Tally tally} too, and not final: the task a request forks for a
 * job extends it, so that a job is one object (task, tally and handle), not three. The tally's counts are the job
 * thread's own, as the tally says; nothing here reads them.
 *
 * <p>Its state is one word, changed only by compare-and-set: {@code DIALING}, {@code CALL} (the job has a call
 * that it or {@link #cancel()} must close), {@code CANCELLED}, {@code WITHDRAWN}, {@code ENDED} and {@code
 * CLOSING} (a canceller closes the call it took). A job's own steps (a dial's start and end, attaching and
 * detaching its call, its end) are one compare-and-set each and take no lock: a job that nobody cancels or
 * withdraws, almost every job, takes none. The rare steps of other threads, which interrupt the job's thread,
 * take the lock of the handle's {@link RunningJobs}: a canceller or a withdrawer sets its bit and interrupts in
 * one hold of it, and a job that ends (or {@linkplain #settle() settles}) after such a bit was set passes
 * through that lock before it goes on, so an interrupt sent for it lands before its end returns, never after.
 * While {@code CLOSING}, its end waits on that lock's {@code closed} condition.
 *
 * <p>Invariants: {@code call} is read only by whoever clears {@code CALL} (the job in {@link #detach()}, or
 * {@link #cancel()}), and written only by the job before it sets {@code CALL}; {@code CANCELLED}, {@code
 * WITHDRAWN} and {@code ENDED} are never cleared. Once cancelled or withdrawn, the job attaches no call and starts
 * no dial; a job is withdrawn only while it has no call, and is interrupted for it only while it is not dialing;
 * once ended (or settled), its thread is never interrupted. {@code thread} and {@code jobs} are written once, in
 * {@link #registeredBy} from {@link RunningJobs#start(JobHandle)} on the job's thread before the handle is
 * published in the slots, through which other threads find it.
 */
class JobHandle extends UnitCounts.Tally {

    private static final Logger LOG = LoggerFactory.getLogger(JobHandle.class);

    private static final int DIALING = 1;
    private static final int CALL = 1 << 1;
    private static final int CANCELLED = 1 << 2;
    private static final int WITHDRAWN = 1 << 3;
    private static final int ENDED = 1 << 4;
    private static final int CLOSING = 1 << 5;
    /** The bits another thread sets before it interrupts the job's thread. */
    private static final int INTERRUPTERS = CANCELLED | WITHDRAWN;
    /** Any of these, and the job may not be withdrawn: it is on a tier2, or already stopping. */
    private static final int NOT_WITHDRAWABLE = CANCELLED | WITHDRAWN | ENDED | CALL;
    /** What {@link #setUnless} returns when a blocking bit was set. */
    private static final int BLOCKED = -1;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(JobHandle.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final JobKey key;
    private Thread thread;
    private RunningJobs jobs;
    private Tier2Call call;
    private volatile int state;
    // Whether the cancel that marked the job CANCELLED was the request's stop's (cancelForTheStop), not its unit's:
    // written, under the lock of jobs, only by that cancel, before its compare-and-set; read by the job's own thread.
    private volatile boolean byTheStop;
    // Whether the request's stop's cancel came to the job at all, first or after its unit's (which it then leaves as
    // it is): written, under the lock of jobs, by that cancel; read by the job's own thread.
    private volatile boolean stopCame;
    // Whether the job heard an Error as its unit's failure (onFailed): written and read by the job's own thread.
    private boolean errorHeard;

    /** The handle of a job of {@code key} that starts from the unit's {@code prior} counts; not yet started. */
    JobHandle(JobKey key, UnitCounts prior) {
        super(prior);
        this.key = key;
    }

    /** Called once by {@code jobs}, on the job's thread, before the handle is published. */
    void registeredBy(RunningJobs jobs) {
        this.thread = Thread.currentThread();
        this.jobs = jobs;
    }

    /** Whether the job runs on {@code thread} (false before it has started). */
    boolean runsOn(Thread thread) {
        return this.thread == thread;
    }

    /** The unit this job runs. */
    final JobKey key() {
        return key;
    }

    /**
     * The job got {@code call} from a tier2; false if the job was cancelled or withdrawn first (then the job
     * closes it).
     */
    boolean attach(Tier2Call call) {
        this.call = call;
        if (setUnless(CALL, INTERRUPTERS) == BLOCKED) {
            this.call = null;
            return false;
        }
        return true;
    }

    /**
     * The job starts ({@code true}) or ends ({@code false}) a dial. Starting returns false, and the job must not
     * dial, when it was cancelled or withdrawn. While it dials, a withdrawal does not interrupt it; when the dial
     * ends, the job gives its worker up (a call admitted in that same moment is refused by {@link #attach} and
     * closed: the re-run of the client's segment comes first).
     */
    boolean dialing(boolean starts) {
        if (!starts) {
            STATE.getAndBitwiseAnd(this, ~DIALING);
            return true;
        }
        return setUnless(DIALING, INTERRUPTERS) != BLOCKED;
    }

    /** True once the job was withdrawn to give its worker up. */
    boolean withdrawn() {
        return (state & WITHDRAWN) != 0;
    }

    /** True once the job was cancelled because its unit is no longer needed. */
    boolean cancelled() {
        return (state & CANCELLED) != 0;
    }

    boolean mayBeWithdrawn() {
        return (state & NOT_WITHDRAWABLE) == 0;
    }

    /**
     * The job, on its own thread, gives its worker up (to the client's re-run): false if it may not be withdrawn
     * (cancelled, withdrawn already, or holding a call). Nothing interrupts it for this.
     */
    boolean withdrawnByItself() {
        return setUnless(WITHDRAWN, NOT_WITHDRAWABLE) != BLOCKED;
    }

    /** Under the lock of {@code jobs}. */
    boolean withdrawLocked() {
        int s = setUnless(WITHDRAWN, NOT_WITHDRAWABLE);
        if (s == BLOCKED) {
            return false;
        }
        if ((s & DIALING) == 0) {
            thread.interrupt();
        }
        return true;
    }

    /**
     * The job stops for its unit's sake (abandoned or withdrawn): from now on nothing interrupts its thread, so
     * the job can clear an interrupt meant for it alone. Returns whether such an interrupt may have been sent.
     */
    boolean settle() {
        int before = (int) STATE.getAndBitwiseOr(this, ENDED);
        if ((before & INTERRUPTERS) == 0) {
            return false;
        }
        jobs.awaitInterrupters(this);
        return true;
    }

    /** The job is done with its call: returns it to be closed, or null if {@link #cancel()} took it. */
    Tier2Call detach() {
        int before = (int) STATE.getAndBitwiseAnd(this, ~CALL);
        return (before & CALL) == 0 ? null : takeCall();
    }

    /**
     * The job has ended: from now on nothing interrupts its thread. The same step as {@link #settle()}: a canceller
     * still closing the call (CLOSING) has set CANCELLED with it, so the end waits for that close too.
     */
    void end() {
        settle();
    }

    boolean closing() {
        return (state & CLOSING) != 0;
    }

    /**
     * The job has come off its tier2 and is about to wait to dial again: true if it gave its worker up to the client's
     * re-run, which waits for one ({@link RunningJobs#giveUpForTheRerun}); then it stops as a withdrawn job does.
     */
    boolean givesUpForTheRerun() {
        return jobs != null && jobs.giveUpForTheRerun(this);
    }

    /**
     * As {@link #cancel()}, for the request's stop rather than for the unit's sake. A job its unit's cancel reached
     * first stays cancelled for its unit: the stop's cancel does nothing to it.
     */
    void cancelForTheStop() {
        cancel(true);
    }

    /** True if the job was cancelled by {@link #cancelForTheStop()}, not by a cancel for its unit's sake first. */
    boolean cancelledByTheStop() {
        return byTheStop;
    }

    /**
     * True once the request's stop has come to the job, whether its cancel marked it or found it cancelled for its
     * unit already: an Error heard from then on is not reported by the scope, which the stop cancels.
     */
    boolean stopCame() {
        return stopCame;
    }

    /** On the job's thread: it heard an Error as its unit's failure, which must then fail the request. */
    void errorHeard() {
        errorHeard = true;
    }

    /** On the job's thread: whether {@link #errorHeard()} was called. */
    boolean heardAnError() {
        return errorHeard;
    }

    /** Closes the job's call, if it has one, and interrupts its thread, unless the job has ended. */
    void cancel() {
        cancel(false);
    }

    private void cancel(boolean forTheStop) {
        Tier2Call toClose = jobs.cancelOrTakeCall(this, forTheStop);
        if (toClose == null) {
            return;
        }
        LOG.debug("{} no longer needed; closing its call", key);
        try {
            RunningJobs.close(toClose, key);
        } finally {
            jobs.closedAfterCancel(this);
        }
    }

    /**
     * Under the lock of {@code jobs}: marks the job cancelled ({@code forTheStop}: by the request's stop), unless it
     * was already or has ended. Takes its call if it has one (returned, to be closed outside the lock), else
     * interrupts its thread; null if there is no call to close.
     */
    Tier2Call cancelledLocked(boolean forTheStop) {
        if (forTheStop) {
            stopCame = true;
        }
        int s;
        int next;
        do {
            s = state;
            if ((s & (CANCELLED | ENDED)) != 0) {
                return null;
            }
            // Under the lock: no other cancel runs, so the one that sets CANCELLED is the one that wrote this last.
            byTheStop = forTheStop;
            next = (s & CALL) != 0 ? (s & ~CALL) | CANCELLED | CLOSING : s | CANCELLED;
        } while (!STATE.compareAndSet(this, s, next));
        if ((s & CALL) == 0) {
            thread.interrupt();
            return null;
        }
        return takeCall();
    }

    /** Under the lock of {@code jobs}: the canceller has closed the call; interrupts the job unless it ended. */
    void closedByCanceller() {
        int before = (int) STATE.getAndBitwiseAnd(this, ~CLOSING);
        if ((before & ENDED) == 0) {
            thread.interrupt();
        }
    }

    /** Sets {@code bit} unless one of {@code blockers} is set: returns the state before, or {@link #BLOCKED}. */
    private int setUnless(int bit, int blockers) {
        int s;
        do {
            s = state;
            if ((s & blockers) != 0) {
                return BLOCKED;
            }
        } while (!STATE.compareAndSet(this, s, s | bit));
        return s;
    }

    /** The call, now owned by the caller, who has just cleared {@code CALL}. */
    private Tier2Call takeCall() {
        Tier2Call mine = call;
        call = null;
        return mine;
    }
}
