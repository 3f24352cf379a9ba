package dev.orderly.sim.run;

import dev.orderly.api.JobKey;

/**
 * The life of one job (one unit, until it is done or fails): when it joined the launch queue, when it first dialed,
 * when a tier2 took it, and when and how it ended. Times are wall-clock nanoseconds from the start of the run; a
 * negative time means "did not happen". Immutable.
 *
 * @param key the unit
 * @param queuedAt when the job joined the launch queue, or -1 if it never waited in the queue
 * @param firstDialAt when it first dialed, or -1
 * @param admittedAt when a tier2 took it, or -1
 * @param endedAt when it ended (or the run ended, for a job still alive then)
 * @param ending how it ended
 * @param dials how many times it dialed
 */
public record JobTrace(JobKey key, long queuedAt, long firstDialAt, long admittedAt, long endedAt, Ending ending,
                       int dials) {

    /** How a job's life ended. */
    public enum Ending {
        /** The unit is done. */
        DONE,
        /**
         * It got in and failed (execution timeout, retryable or fatal), or the tier2 that took it says nothing ran (a
         * refusal heard from the call's {@code await}); a retry is a new job.
         */
        FAILED,
        /**
         * Its unit stopped being needed (a higher stage of its segment was done, or the segment was delivered): the
         * trace ends when that happened for a job still waiting to get in, when the engine reported the job abandoned
         * ({@code onAbandoned}) for a running one, or when a completed request ended.
         */
        ABANDONED,
        /** It was still alive when its request failed or was cancelled. */
        CANCELLED
    }
}
