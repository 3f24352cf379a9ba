package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs of one request that are running now, by unit, so that a unit that stops being needed can have its job
 * cancelled at once: its {@link Tier2Call} closed and its thread interrupted. A job nobody needs must hold neither a
 * worker of the request nor a slot on a tier2, nor keep a finished request from returning.
 *
 * <p>Invariants: at most one {@link Handle} per unit (one live job per key); a handle is in the map from the job's
 * start to its end. Thread-safe: the map is concurrent and each handle guards its own fields with its lock.
 */
final class RunningJobs {

    private static final Logger LOG = LoggerFactory.getLogger(RunningJobs.class);

    private final Map<JobKey, Handle> jobs = new ConcurrentHashMap<>();

    /** Registers the job of {@code key} running on the calling thread; call before its first dial. */
    Handle start(JobKey key) {
        Handle handle = new Handle(key, Thread.currentThread());
        Handle previous = jobs.putIfAbsent(key, handle);
        if (previous != null) {
            throw new IllegalStateException(key + " already has a running job");
        }
        return handle;
    }

    /** The job of {@code handle} has ended; it is never interrupted after this. */
    void end(Handle handle) {
        handle.end();
        jobs.remove(handle.key, handle);
    }

    /**
     * Unit {@code done} succeeded: the stages under it in its segment are DONE too, so their jobs, if any still run,
     * are cancelled. Costs one lookup per stage under it.
     */
    void cancelCoveredBy(JobKey done) {
        for (int stage = 0; stage < done.stage(); stage++) {
            Handle handle = jobs.get(new JobKey(done.segment(), stage));
            if (handle != null) {
                handle.cancel();
            }
        }
    }

    /**
     * One running job: its thread and, while it waits on a tier2, its call. The call is closed exactly once, by
     * whichever comes first: the job when it is done with it, or {@link #cancel()}.
     *
     * <p>Guarded by {@code lock}: {@code call}, {@code cancelled}, {@code ended}. Once {@code cancelled}, the job
     * attaches no call; once {@code ended}, its thread is never interrupted.
     */
    static final class Handle {
        private final JobKey key;
        private final Thread thread;
        private final ReentrantLock lock = new ReentrantLock();
        private Tier2Call call;
        private boolean cancelled;
        private boolean ended;

        private Handle(JobKey key, Thread thread) {
            this.key = key;
            this.thread = thread;
        }

        /** The job got {@code call} from a tier2; false if the job was cancelled first (then the job closes it). */
        boolean attach(Tier2Call call) {
            lock.lock();
            try {
                if (!cancelled) {
                    this.call = call;
                }
                return !cancelled;
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
            lock.lock();
            try {
                return cancelled;
            } finally {
                lock.unlock();
            }
        }

        private void end() {
            lock.lock();
            try {
                ended = true;
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
                // Interrupt under the lock, so the job can not have ended (and its thread moved on) in between.
                if (toClose == null) {
                    thread.interrupt();
                }
            } finally {
                lock.unlock();
            }
            if (toClose != null) {
                LOG.debug("{} no longer needed; closing its call", key);
                close(toClose, key);
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

    /** Closes {@code call}; a call that can not let go must not change the job's outcome. */
    static void close(Tier2Call call, JobKey key) {
        try {
            call.close();
        } catch (RuntimeException e) {
            LOG.warn("closing the tier2 call of {} threw; ignored", key, e);
        }
    }
}
