package dev.orderly.api;

/**
 * A job a tier2 has taken (admitted) and is running.
 *
 * <p>The engine calls {@link #await()} once and {@link #close()} exactly once on every path, including
 * cancellation, so an implementation may release its connection or slot in {@code close}.
 *
 * <p>Memory consistency effects (in the sense of the "Memory Consistency Properties" of {@code java.util.concurrent}):
 * actions in the job's thread prior to the normal return of {@link #await()} <i>happen-before</i> the engine's
 * {@link OutputStore#read} of that unit's segment, and every later call of the client. So an implementation whose
 * {@code await()} returns only after it has seen the job's end (for example it waits on a latch that the thread
 * writing the output counts down, or on a gRPC stream's final message) needs no synchronisation of its own to make
 * the output visible: the engine carries that edge on to the thread that reads the store.
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

    /**
     * Releases what the call holds. Must not throw; the default does nothing. If it throws anyway (an {@code Error}
     * included), the engine logs it and counts the call as closed; only a {@link VirtualMachineError} propagates.
     * When the engine closes a call whose unit another job has covered, an {@code await()} that then returns normally
     * ends the job as abandoned, not done.
     */
    @Override
    default void close() {
    }
}
