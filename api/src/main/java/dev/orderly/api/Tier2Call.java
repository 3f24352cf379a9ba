package dev.orderly.api;

/**
 * A job a tier2 has taken (admitted) and is running.
 *
 * <p>The engine calls {@link #await()} once and {@link #close()} exactly once on every path, including
 * cancellation, so an implementation may release its connection or slot in {@code close}.
 */
public interface Tier2Call extends AutoCloseable {

    /**
     * Blocks until the job has ended on the tier2. On a normal return the unit's output is in the
     * {@link OutputStore} (for the last stage) or its state is stored (for earlier stages).
     *
     * @throws Tier2Exception why the job failed after it got in
     * @throws InterruptedException if the request was cancelled while the job ran
     */
    void await() throws Tier2Exception, InterruptedException;

    /** Releases what the call holds. Must not throw; the default does nothing. */
    @Override
    default void close() {
    }
}
