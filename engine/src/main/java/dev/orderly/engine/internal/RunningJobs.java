package dev.orderly.engine.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs of one request that are running now, by unit, so that a unit that stops being needed can have its job
 * cancelled at once: its {@link Tier2Call} closed and its thread interrupted. A job nobody needs must hold neither a
 * worker of the request nor a slot on a tier2, nor keep a finished request from returning.
 *
 * <p>Invariants: at most one {@link Handle} per unit (one live job per key); a handle is in the map from the job's
 * start to its end. Thread-safe: the map ({@link UnitSlots}, a slot per unit of the look-ahead window) is concurrent
 * and each handle guards its own fields with its lock.
 */
final class RunningJobs {

    private static final Logger LOG = LoggerFactory.getLogger(RunningJobs.class);

    private final UnitSlots<Handle> jobs;

    /**
     * @param lookahead the segments of the request's look-ahead window, in which its jobs run
     * @param stages the stages of the request's plan
     */
    RunningJobs(long lookahead, int stages) {
        this.jobs = new UnitSlots<>(lookahead, stages, handle -> handle.key);
    }

    /**
     * Registers a job of {@code key}, with no earlier counts, running on the calling thread; call before its first
     * dial.
     */
    Handle start(JobKey key) {
        Handle handle = new Handle(key, UnitCounts.NONE);
        start(handle);
        return handle;
    }

    /**
     * Registers the job of {@code handle} as running on the calling thread; call before its first dial, once.
     *
     * @throws IllegalStateException if its unit has a running job already
     */
    void start(Handle handle) {
        handle.thread = Thread.currentThread();
        Handle previous = jobs.putIfAbsent(handle);
        if (previous != null) {
            throw new IllegalStateException(handle.key + " already has a running job");
        }
    }

    /**
     * The job of {@code handle} has ended; it is never interrupted after this. If {@link Handle#cancel()} is closing
     * its call on another thread, this waits until that close has returned: a job counts as alive (for its worker
     * and the engine-wide cap) until its call is closed, so a tier2 never sees more open calls than alive jobs.
     */
    void end(Handle handle) {
        handle.end();
        jobs.remove(handle);
    }

    /**
     * The job of {@code key}, if it runs and is not on a tier2 now, gives its worker up before its next dial (to the
     * re-run of the client's segment): it is interrupted where it waits, or, if it is dialing, stops when the dial
     * is refused. False if it has no job, or its job is on a tier2 (or just got in) and keeps its worker.
     */
    boolean withdraw(JobKey key) {
        Handle handle = jobs.get(key);
        return handle != null && handle.withdraw();
    }

    /**
     * The highest job in launch order that is not on a tier2 (queued, dialing or sitting out a delay) gives its
     * worker up, as {@link #withdraw} says; returns its unit, or null if every running job is on a tier2. Called only
     * when the client's segment is re-run with every worker taken, which can afford a look at every slot of the
     * window (its look-ahead times its stages, at most {@link UnitSlots#MAX_SLOTS}).
     */
    JobKey withdrawHighestWaiting() {
        while (true) {
            Handle[] highest = new Handle[1];
            jobs.forEach(handle -> {
                if (handle.mayBeWithdrawn() && (highest[0] == null || handle.key.compareTo(highest[0].key) > 0)) {
                    highest[0] = handle;
                }
            });
            if (highest[0] == null) {
                return null;
            }
            if (highest[0].withdraw()) {
                return highest[0].key;
            }
            // It got in (or ended) since we looked: look again, the next one may still be waiting.
        }
    }

    /**
     * Unit {@code done} succeeded: the stages under it in its segment are DONE too, so their jobs, if any still run,
     * are cancelled. Costs one lookup per stage under it.
     */
    void cancelCoveredBy(JobKey done) {
        for (int stage = 0; stage < done.stage(); stage++) {
            Handle handle = jobs.get(done.segment(), stage);
            if (handle != null) {
                handle.cancel();
            }
        }
    }

    /**
     * One running job: its thread and, while it waits on a tier2, its call. The call is closed exactly once, by
     * whichever comes first: the job when it is done with it, or {@link #cancel()}.
     *
     * <p>A handle is its job's {@linkplain UnitCounts.Tally tally} too, and not final: the task a request forks for a
     * job extends it, so that a job is one object (task, tally and handle), not three. The tally's counts are the job
     * thread's own, as the tally says; nothing here reads them.
     *
     * <p>Guarded by {@code lock}: {@code call}, {@code dialing}, {@code ended}, the writes of {@code cancelled} and
     * {@code withdrawn} (volatile, so read without it),
     * {@code closing} (true while {@link #cancel()} closes the call outside the lock; {@code closed} is signalled
     * when it turns false, and only the job's own thread, in {@link #end()}, waits on it). {@code thread} is written
     * once, by {@link #start(Handle)} on the job's thread before the handle is published in the map, through which
     * other threads find it.
     * Once {@code cancelled} or {@code withdrawn}, the job attaches no call and starts no dial; a job is withdrawn only
     * while it has no call, and is interrupted for it only while it is not dialing; once {@code ended} (or
     * {@linkplain #settle() settled}), its thread is never interrupted.
     */
    static class Handle extends UnitCounts.Tally {
        private final JobKey key;
        private Thread thread;
        private final ReentrantLock lock = new ReentrantLock();
        @GuardedBy("lock")
        private Tier2Call call;
        // Written under lock, and only ever from false to true; volatile so that the job's own checks, made at every
        // step of every dial, read them without it (one read gives what a lock round trip would: the value at one
        // moment).
        private volatile boolean cancelled;
        private volatile boolean withdrawn;
        @GuardedBy("lock")
        private boolean dialing;
        @GuardedBy("lock")
        private boolean ended;
        @GuardedBy("lock")
        private boolean closing;
        // Made by the job's thread the one time it has to wait for a canceller's close (rarely): not one per job.
        @GuardedBy("lock")
        private Condition closed;

        /** The handle of a job of {@code key} that starts from the unit's {@code prior} counts; not yet started. */
        Handle(JobKey key, UnitCounts prior) {
            super(prior);
            this.key = key;
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
            lock.lock();
            try {
                boolean keep = !cancelled && !withdrawn;
                if (keep) {
                    this.call = call;
                }
                return keep;
            } finally {
                lock.unlock();
            }
        }

        /**
         * The job starts ({@code true}) or ends ({@code false}) a dial. Starting returns false, and the job must not
         * dial, when it was cancelled or withdrawn. While it dials, a withdrawal does not interrupt it; when the dial
         * ends, the job gives its worker up (a call admitted in that same moment is refused by {@link #attach} and
         * closed: the re-run of the client's segment comes first).
         */
        boolean dialing(boolean starts) {
            lock.lock();
            try {
                if (starts && (cancelled || withdrawn)) {
                    return false;
                }
                dialing = starts;
                return true;
            } finally {
                lock.unlock();
            }
        }

        /** True once the job was withdrawn to give its worker up. */
        boolean withdrawn() {
            return withdrawn;
        }

        private boolean mayBeWithdrawn() {
            lock.lock();
            try {
                return !cancelled && !withdrawn && !ended && call == null;
            } finally {
                lock.unlock();
            }
        }

        private boolean withdraw() {
            lock.lock();
            try {
                if (cancelled || withdrawn || ended || call != null) {
                    return false;
                }
                withdrawn = true;
                if (!dialing) {
                    thread.interrupt();
                }
                return true;
            } finally {
                lock.unlock();
            }
        }

        /**
         * The job stops for its unit's sake (abandoned or withdrawn): from now on nothing interrupts its thread, so
         * the job can clear an interrupt meant for it alone. Returns whether such an interrupt may have been sent.
         */
        boolean settle() {
            lock.lock();
            try {
                ended = true;
                return cancelled || withdrawn;
            } finally {
                lock.unlock();
            }
        }

        /** The job is done with its call: returns it to be closed, or null if {@link #cancel()} closed it. */
        Tier2Call detach() {
            lock.lock();
            try {
                Tier2Call mine = call;
                call = null;
                return mine;
            } finally {
                lock.unlock();
            }
        }

        /** True once the job was cancelled because its unit is no longer needed. */
        boolean cancelled() {
            return cancelled;
        }

        private void end() {
            lock.lock();
            try {
                ended = true;
                while (closing) {
                    // Keeps a pending interrupt set; the close runs on the canceller's thread and does not need us.
                    if (closed == null) {
                        closed = lock.newCondition();
                    }
                    closed.awaitUninterruptibly();
                }
            } finally {
                lock.unlock();
            }
        }

        /** Closes the job's call, if it has one, and interrupts its thread, unless the job has ended. */
        void cancel() {
            Tier2Call toClose;
            lock.lock();
            try {
                if (cancelled || ended) {
                    return;
                }
                cancelled = true;
                toClose = call;
                call = null;
                closing = toClose != null;
                // Interrupt under the lock, so the job can not have ended (and its thread moved on) in between.
                if (toClose == null) {
                    thread.interrupt();
                }
            } finally {
                lock.unlock();
            }
            if (toClose != null) {
                LOG.debug("{} no longer needed; closing its call", key);
                try {
                    close(toClose, key);
                } finally {
                    lock.lock();
                    try {
                        closing = false;
                        if (closed != null) {
                            closed.signal();
                        }
                    } finally {
                        lock.unlock();
                    }
                }
                lock.lock();
                try {
                    if (!ended) {
                        thread.interrupt();
                    }
                } finally {
                    lock.unlock();
                }
            }
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
