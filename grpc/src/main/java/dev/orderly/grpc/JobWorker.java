package dev.orderly.grpc;

import dev.orderly.api.Job;

/**
 * What a {@link Tier2Server} does for one admitted job. It writes the job's output where the tier1 reads it: through
 * {@link JobContext#writeOutput} (the server's {@link JobOutputs}), or to a store of its own on storage both sides
 * reach.
 *
 * <p>How it ends decides what the client sees: returning sends {@code Completed}; a
 * {@link dev.orderly.api.Tier2Exception} of kind FATAL sends {@code Failed} marked fatal; of kind EXECUTION_TIMEOUT
 * closes the call with {@code DEADLINE_EXCEEDED}; anything else sends {@code Failed} not marked fatal (the client
 * retries it). The job's thread is interrupted when the client cancels, goes away, or the server stops; a worker that
 * honours the interrupt frees its slot at once.
 *
 * <p>The server calls {@link #run(JobContext)}, which by default hands the job and its work to
 * {@link #run(Job, byte[])}: a worker that needs only those implements that one method (a lambda will do). A worker
 * that writes through the server's outputs or sends progress implements {@link WithContext} instead.
 */
@FunctionalInterface
public interface JobWorker {

    /**
     * Runs one job, on its own virtual thread.
     *
     * @param job what to run
     * @param work the opaque bytes the tier1 sent with it (empty when none)
     */
    void run(Job job, byte[] work) throws Exception;

    /**
     * Runs one job with its context; what the server calls. By default {@code run(context.job(), context.work())}.
     *
     * @param context the job, its work, where its output goes and how to send progress
     */
    default void run(JobContext context) throws Exception {
        run(context.job(), context.work());
    }

    /**
     * A worker that uses its {@link JobContext}: it implements {@link #run(JobContext)} only (a lambda will do), for
     * example {@code context -> context.writeOutput(render(context.work()))}.
     */
    @FunctionalInterface
    interface WithContext extends JobWorker {

        @Override
        void run(JobContext context) throws Exception;

        /**
         * Runs the job with a context that has no outputs and sends no updates: for a caller outside a
         * {@link Tier2Server}, such as a test. {@link JobContext#writeOutput} then throws
         * {@link IllegalStateException}.
         */
        @Override
        default void run(Job job, byte[] work) throws Exception {
            run(ServerJob.detachedContext(job, work));
        }
    }
}
