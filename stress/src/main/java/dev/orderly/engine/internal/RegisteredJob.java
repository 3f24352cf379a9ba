package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;

/**
 * A job registered in a {@link RunningJobs} before a race, so that the race is between its steps and another
 * thread's, not its thread's start. The handle is started on a short-lived virtual thread, which is what a cancel or
 * a withdrawal interrupts: a virtual thread keeps an interrupt sent after it ended, so the arbiter can read every
 * interrupt sent to the job while the actors take the job's steps on their own threads.
 */
final class RegisteredJob {

    private final RunningJobs running = new RunningJobs(4, 2);
    private final JobHandle handle;
    private final Thread thread;
    private volatile boolean interruptedAtItsEnd;

    RegisteredJob(JobKey key) {
        JobHandle[] started = new JobHandle[1];
        thread = Thread.ofVirtual().unstarted(() -> started[0] = running.start(key));
        thread.start();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while registering " + key, e);
        }
        handle = started[0];
    }

    RunningJobs running() {
        return running;
    }

    JobHandle handle() {
        return handle;
    }

    /** Call right after the job's last step after which no interrupt may reach it (its end, or its settle). */
    void ended() {
        interruptedAtItsEnd = thread.isInterrupted();
    }

    /** True if an interrupt has reached the job's thread (at any time, its end included). */
    boolean interrupted() {
        return thread.isInterrupted();
    }

    /** True if an interrupt reached the job's thread after {@link #ended()}; call once the actors are done. */
    boolean interruptedAfterItsEnd() {
        return thread.isInterrupted() && !interruptedAtItsEnd;
    }
}
