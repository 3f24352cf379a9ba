package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;

/**
 * What a job waits for before each dial, and reports after it: the launch queue in ordered mode, a plain per-job
 * delay in the unordered baseline. Implementations are thread-safe; one live job per key.
 */
interface DialGate {

    /** Waits until the job of {@code key} may dial. */
    void awaitTurn(JobKey key) throws InterruptedException;

    /** The dial was refused or the fleet unreachable; the next dial waits {@code refusedDelay} (or less: slotFreed). */
    void refused(JobKey key);

    /** The job got in and failed; the next dial waits {@code failureDelay}. */
    void failed(JobKey key);

    /** The job was admitted or has ended; idempotent. */
    void leave(JobKey key);

    /** A job of the request has ended on a tier2, freeing its slot there. Nothing by default. */
    default void slotFreed() {
    }
}
