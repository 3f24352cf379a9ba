package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.Tier2Call;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs of one request that are running now, by unit, so that a unit that stops being needed can have its job
 * cancelled at once: its {@link Tier2Call} closed and its thread interrupted. A job nobody needs must hold neither a
 * worker of the request nor a slot on a tier2, nor keep a finished request from returning.
 *
 * <p>Invariants: at most one {@link JobHandle} per unit (one live job per key); a handle is in the map from the job's
 * start to its end. Thread-safe: the map ({@link UnitSlots}, a slot per unit of the look-ahead window) is concurrent;
 * each handle keeps its state in one word changed by compare-and-set, and {@code interrupters} guards the rare steps
 * that interrupt a job's thread (see {@link JobHandle}).
 */
final class RunningJobs {

    private static final Logger LOG = LoggerFactory.getLogger(RunningJobs.class);

    private final UnitSlots<JobHandle> jobs;
    // The rare steps that interrupt a job's thread (a cancel, a withdrawal) and the end of a job that one of them
    // marked; closed is signalled whenever a canceller has closed the call it took. One lock for the request's jobs,
    // taken by none of them unless cancelled or withdrawn.
    private final ReentrantLock interrupters = new ReentrantLock();
    private final Condition closed = interrupters.newCondition();
    // The unit of the client's re-run while it waits for a worker that no job could give up when asked (every job was
    // on a tier2 then): the first job to come off its tier2 and wait to dial again gives its worker up to it, instead
    // of holding it through its delay. Null when no re-run waits so.
    private final AtomicReference<JobKey> rerunWaiting = new AtomicReference<>();
    // The first VirtualMachineError met by the request's threads (a job, the walker, or a call's close at the stop),
    // for run to throw as itself once every thread has ended: one met after the scope was cancelled is reported by
    // no scope, and one from a close at the stop must not cut the stop short.
    private final AtomicReference<VirtualMachineError> vmError = new AtomicReference<>();
    private final AtomicReference<RequestFailedException> heardFailure = new AtomicReference<>();

    /**
     * @param lookahead the segments of the request's look-ahead window, in which its jobs run
     * @param stages the stages of the request's plan
     */
    RunningJobs(long lookahead, int stages) {
        this.jobs = new UnitSlots<>(lookahead, stages, handle -> handle.key());
    }

    /**
     * Registers a job of {@code key}, with no earlier counts, running on the calling thread; call before its first
     * dial.
     */
    JobHandle start(JobKey key) {
        JobHandle handle = new JobHandle(key, UnitCounts.NONE);
        start(handle);
        return handle;
    }

    /**
     * Registers the job of {@code handle} as running on the calling thread; call before its first dial, once.
     *
     * @throws IllegalStateException if its unit has a running job already
     */
    void start(JobHandle handle) {
        handle.registeredBy(this);
        JobHandle previous = jobs.putIfAbsent(handle);
        if (previous != null) {
            throw new IllegalStateException(handle.key() + " already has a running job");
        }
        JobKey rerun = rerunWaiting.get();
        if (rerun != null && rerun.equals(handle.key())) {
            // The re-run has its worker (a job ended): nobody need give one up to it any more.
            rerunWaiting.compareAndSet(rerun, null);
        }
    }

    /**
     * The job of {@code handle} has ended; it is never interrupted after this. If {@link JobHandle#cancel()} is
     * closing its call on another thread, this waits until that close has returned: a job counts as alive (for its
     * worker and the engine-wide cap) until its call is closed, so a tier2 never sees more open calls than alive
     * jobs.
     */
    void end(JobHandle handle) {
        handle.end();
        jobs.remove(handle);
    }

    /**
     * The job of {@code key}, if it runs and is not on a tier2 now, gives its worker up before its next dial (to the
     * re-run of the client's segment): it is interrupted where it waits, or, if it is dialing, stops when the dial
     * ends, whatever its answer (a call that got in is closed at once, not awaited). False if it has no job, or its
     * job is on a tier2 (its call attached) and keeps its worker.
     */
    boolean withdraw(JobKey key) {
        JobHandle handle = jobs.get(key);
        return handle != null && withdraw(handle);
    }

    /**
     * The highest job in launch order that is not on a tier2 (queued, dialing or sitting out a delay) gives its
     * worker up, as {@link #withdraw} says; returns its unit, or null if every running job is on a tier2. Called only
     * when the client's segment is re-run with every worker taken, which can afford a look at every slot of the
     * window (its look-ahead times its stages, at most {@link UnitSlots#MAX_SLOTS}).
     *
     * <p>The job of {@code rerun}, the re-run unit itself, is never the one: it may have been launched since the
     * re-run found every worker taken (a job ended meanwhile), and it would give up the worker it runs on, to itself.
     */
    JobKey withdrawHighestWaiting(JobKey rerun) {
        JobKey withdrawn = withdrawHighestWaitingNow(rerun);
        if (withdrawn != null) {
            return withdrawn;
        }
        // Every job is on a tier2: the first that comes off it to wait for a redial gives its worker up
        // (giveUpForTheRerun), rather than hold it through its delay while the client waits.
        rerunWaiting.set(rerun);
        // A job that came off its tier2 since the look above may have asked before the set: look once more. (Its
        // withdrawal here and one through the set can both happen: a worker more is freed, and its unit relaunched.)
        withdrawn = withdrawHighestWaitingNow(rerun);
        if (withdrawn != null || jobs.get(rerun) != null) {
            // Served, or the re-run's job has started since (a job ended): nobody need give a worker up any more.
            rerunWaiting.compareAndSet(rerun, null);
        }
        return withdrawn;
    }

    /**
     * The job of {@code handle}, which has just come off its tier2 (it failed, or was refused) and is about to wait to
     * dial again, gives its worker up to the client's re-run if that waits for one ({@link #withdrawHighestWaiting}
     * found every job on a tier2): true if the job is now withdrawn and must stop, as a withdrawn job does, before its
     * next dial. Called on the job's own thread.
     */
    boolean giveUpForTheRerun(JobHandle handle) {
        JobKey rerun = rerunWaiting.get();
        if (rerun == null || rerun.equals(handle.key()) || !rerunWaiting.compareAndSet(rerun, null)) {
            return false;
        }
        if (handle.withdrawnByItself()) {
            return true;
        }
        if (!handle.withdrawn()) {
            // Cancelled meanwhile (its unit covered): it stops anyway, but frees no worker for the re-run. The next
            // job to come off its tier2 will.
            rerunWaiting.compareAndSet(null, rerun);
        }
        // Else withdrawn by the walker already: its pending interrupt stops it at its next wait.
        return false;
    }

    /** {@link #withdrawHighestWaiting}'s one look at the jobs: the unit of the job it withdrew, or null. */
    private JobKey withdrawHighestWaitingNow(JobKey rerun) {
        while (true) {
            JobHandle[] highest = new JobHandle[1];
            jobs.forEach(handle -> {
                if (handle.mayBeWithdrawn() && !handle.key().equals(rerun)
                        && (highest[0] == null || handle.key().compareTo(highest[0].key()) > 0)) {
                    highest[0] = handle;
                }
            });
            if (highest[0] == null) {
                return null;
            }
            if (withdraw(highest[0])) {
                return highest[0].key();
            }
            // It got in (or ended) since we looked: look again, the next one may still be waiting.
        }
    }

    /**
     * The request stopped (failed, cancelled, past its deadline, or every segment delivered): every running job is
     * cancelled as a covered one is, its call closed and its thread interrupted, so that a call that answers close but
     * not an interrupt ends too, and its worker and place under the engine-wide cap are free at once.
     */
    void cancelAll() {
        jobs.forEach(handle -> {
            try {
                handle.cancelForTheStop();
            } catch (VirtualMachineError e) {
                // Thrown on the thread that stops the request, which must still end as the scope expects: kept.
                kept(e);
            }
        });
    }

    /** Keeps {@code e}, met by a thread of the request, if it is the first such error; returns it. */
    VirtualMachineError kept(VirtualMachineError e) {
        vmError.compareAndSet(null, e);
        return e;
    }

    /**
     * Keeps {@code e}, the failure of a job whose listener heard its Error as the unit's fatal failure, if it is the
     * first: a scope cancelled meanwhile (the request ended) reports nothing more, and the request must not end well
     * after an onFailed. Returns it.
     */
    RequestFailedException keptHeard(RequestFailedException e) {
        heardFailure.compareAndSet(null, e);
        return e;
    }

    /** The first failure kept by {@link #keptHeard}, or null. */
    RequestFailedException heardFailure() {
        return heardFailure.get();
    }

    /** The first {@link VirtualMachineError} a thread of the request met, or null. */
    VirtualMachineError vmError() {
        return vmError.get();
    }

    /**
     * Whether {@code thread} runs a job that was cancelled or withdrawn for its own unit's sake (covered, or giving its
     * worker up), not by the request's stop, and so may have been interrupted for it. A look at every slot: asked only
     * when a listener throws {@code InterruptedException}, or a job abandons its run.
     */
    boolean interruptedForItsUnit(Thread thread) {
        boolean[] found = new boolean[1];
        jobs.forEach(handle -> {
            if (handle.runsOn(thread) && (handle.cancelled() && !handle.cancelledByTheStop() || handle.withdrawn())) {
                found[0] = true;
            }
        });
        return found[0];
    }

    /**
     * Unit {@code done} succeeded: the stages under it in its segment are DONE too, so their jobs, if any still run,
     * are cancelled. Costs one lookup per stage under it.
     */
    void cancelCoveredBy(JobKey done) {
        for (int stage = 0; stage < done.stage(); stage++) {
            JobHandle handle = jobs.get(done.segment(), stage);
            if (handle != null) {
                handle.cancel();
            }
        }
    }

    private boolean withdraw(JobHandle handle) {
        interrupters.lock();
        try {
            return handle.withdrawLocked();
        } finally {
            interrupters.unlock();
        }
    }

    /**
     * Cancels the job of {@code handle} ({@code forTheStop}: for the request's stop): returns its call, to close
     * outside the lock, or null (see JobHandle).
     */
    Tier2Call cancelOrTakeCall(JobHandle handle, boolean forTheStop) {
        interrupters.lock();
        try {
            return handle.cancelledLocked(forTheStop);
        } finally {
            interrupters.unlock();
        }
    }

    /** The canceller of {@code handle} has closed the call it took: the job's end may go on. */
    void closedAfterCancel(JobHandle handle) {
        interrupters.lock();
        try {
            handle.closedByCanceller();
            closed.signalAll();
        } finally {
            interrupters.unlock();
        }
    }

    /**
     * Called by a job that ends after another thread marked it for an interrupt: returns once that thread's hold of
     * the lock, in which it interrupts, is over, and no canceller still closes the job's call.
     */
    void awaitInterrupters(JobHandle handle) {
        interrupters.lock();
        try {
            while (handle.closing()) {
                // Keeps a pending interrupt set; the close runs on the canceller's thread and does not need us.
                closed.awaitUninterruptibly();
            }
        } finally {
            interrupters.unlock();
        }
    }

    /**
     * Closes {@code call}; a call that can not let go must not change the job's outcome. Whatever {@code close}
     * throws, an {@code Error} included, is logged and the call counts as closed; only a {@link VirtualMachineError}
     * propagates.
     */
    static void close(Tier2Call call, JobKey key) {
        try {
            call.close();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            LOG.warn("closing the tier2 call of {} threw; ignored, the call counts as closed", key, e);
        }
    }
}
