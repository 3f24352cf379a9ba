package dev.orderly.grpc;

import dev.orderly.api.Job;

/**
 * What a {@link Tier2Server} does for one admitted job. It writes the job's output where the tier1 reads it (for
 * example a {@code FileOutputStore} directory on storage both sides reach).
 *
 * <p>How it ends decides what the client sees: returning sends {@code Completed}; a
 * {@link dev.orderly.api.Tier2Exception} of kind FATAL sends {@code Failed} marked fatal; of kind EXECUTION_TIMEOUT
 * closes the call with {@code DEADLINE_EXCEEDED}; anything else sends {@code Failed} not marked fatal (the client
 * retries it). The job's thread is interrupted when the client cancels, goes away, or the server stops; a worker that
 * honours the interrupt frees its slot at once.
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
}
