package dev.orderly.engine;

import dev.orderly.api.JobKey;

/**
 * What a job waits for before each dial, and reports to after it. The engine's {@link LaunchQueue} is the ordered one;
 * the engine's unordered baseline is a plain per-job delay; benchmarks put their baselines behind the same interface.
 *
 * <p>Every dial, the first and each retry, is preceded by {@link #awaitTurn} and followed by exactly one report:
 * {@link #refused} (nothing ran), {@link #failed} (the job got in and failed) or {@link #leave} (a tier2 took the
 * job, or it ended). Implementations are thread-safe; one live job per key.
 */
public interface DialGate {

    /** Waits until the job of {@code key} may dial. */
    void awaitTurn(JobKey key) throws InterruptedException;

    /** The dial was refused or the fleet unreachable: nothing ran. The next dial waits {@code refusedDelay}. */
    void refused(JobKey key);

    /** The job got in and failed; the next dial waits {@code failureDelay}. */
    void failed(JobKey key);

    /** The job was admitted or has ended; idempotent. */
    void leave(JobKey key);

    /**
     * The job took its turn and stops without dialing (its unit is no longer needed, or it gives its worker up): it
     * leaves, as {@link #leave}, and a gate that let it dial early for a slot freed on a tier2 ({@link #slotFreed})
     * passes that early turn on, since the slot is still free. {@code leave(key)} by default.
     */
    default void leaveWithoutDialing(JobKey key) {
        leave(key);
    }

    /**
     * A job of the request has just ended on a tier2, freeing its slot there: a gate may let a refused job dial
     * sooner. Nothing by default.
     */
    default void slotFreed() {
    }
}
