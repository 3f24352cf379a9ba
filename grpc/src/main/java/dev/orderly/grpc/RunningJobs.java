package dev.orderly.grpc;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The jobs a tier2 runs now, and their stop when the server closes ({@link #stopAll()}).
 *
 * <p>A dial is admitted (its slot taken) before its job is added here, and the drain may begin between the two: a
 * stop that only went through the jobs present would miss that one, which would then run on while {@code close()}
 * waited for its slot. So the stop is remembered, and a job added after it is refused, for its dial to stop it.
 *
 * <h2>State (guarded by {@code lock})</h2>
 * {@code jobs} holds the jobs added and not yet removed; {@code stopping} only turns true, once. This class is
 * thread-safe.
 */
final class RunningJobs {

    private final ReentrantLock lock = new ReentrantLock();

    // guarded by lock
    private final Set<ServerJob> jobs = new HashSet<>();
    // guarded by lock
    private boolean stopping;

    /**
     * Adds a job that was just admitted.
     *
     * @return false if the server is stopping: the job was not added, and the caller stops it
     */
    boolean add(ServerJob job) {
        lock.lock();
        try {
            if (stopping) {
                return false;
            }
            jobs.add(job);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The job's thread is done. */
    void remove(ServerJob job) {
        lock.lock();
        try {
            jobs.remove(job);
        } finally {
            lock.unlock();
        }
    }

    /** Stops every job running now, and refuses every one added from now on (see {@link #add}). */
    void stopAll() {
        List<ServerJob> now;
        lock.lock();
        try {
            stopping = true;
            now = List.copyOf(jobs);
        } finally {
            lock.unlock();
        }
        now.forEach(j -> j.cancel(ServerJob.Why.SERVER_STOPPING)); // outside the lock: a cancel sends on its call
    }
}
