package dev.orderly.sim.fleet;

import java.time.Duration;

/**
 * What becomes of one admitted job: how long it holds its slot (simulated time) and how it ends.
 *
 * @param outcome how the job ends
 * @param runFor how long the job holds its slot before it ends
 */
public record Fate(Outcome outcome, Duration runFor) {

    /** How an admitted job ends. */
    public enum Outcome {
        /** The job succeeds; a last-stage job leaves its output in the store. */
        SUCCEEDED,
        /** The job succeeds but its output never reaches the store (the engine must re-run it). */
        OUTPUT_MISSING,
        /** The job runs past its deadline. */
        EXECUTION_TIMEOUT,
        /** The job fails with an error worth another try. */
        RETRYABLE,
        /** The job fails with an error no retry can fix. */
        FATAL
    }
}
