package dev.orderly.api;

import java.io.IOException;
import java.util.Optional;

/**
 * Where tier2 jobs leave the last stage's output of each segment, and where the engine reads it back to hand it to
 * the client. Implementations must be safe to call from many threads.
 *
 * <p>Memory consistency effects: when the engine reads a segment after a job of its last stage succeeded, actions in
 * that job's thread prior to the return of its {@link Tier2Call#await()} <i>happen-before</i> the {@link #read} call.
 * An in-process store therefore sees what the job wrote before its call ended, provided the call's {@code await()}
 * itself synchronised with the writer; a store backed by files or an object store must still be consistent on its own
 * terms (a file written and moved into place before the job reported success is there to read).
 *
 * <p>Interrupts: when the request has a deadline and it passes while the engine is inside {@link #read} or
 * {@link #contains}, the engine interrupts the calling thread and fails the request at its deadline. A store that
 * answers the interrupt (an {@link java.io.InterruptedIOException}, a {@code ClosedByInterruptException}) lets the
 * request end then; a store whose read ignores interrupts can hold {@code Engine.run} until the read returns.
 *
 * <p>Whatever a store throws, an {@code Error} included, fails the request naming the segment's last stage, the
 * throwable as the cause; only a {@link VirtualMachineError} propagates as itself.
 */
@FunctionalInterface
public interface OutputStore {

    /**
     * Returns the last stage's output of {@code segment}, or empty when there is none (the engine then re-runs the
     * segment).
     *
     * @throws IOException if the store could not be read; this fails the request
     */
    Optional<byte[]> read(long segment) throws IOException;

    /**
     * Whether the last stage's output of {@code segment} is there, without handing it over. A request with resume
     * asks this of each segment as it enters the look-ahead window and reads the output once, at delivery. The
     * default reads it; a store that can answer more cheaply (a file's existence, an object's metadata) should.
     *
     * @throws IOException if the store could not be asked; this fails the request
     * @throws IllegalStateException (the default) if {@link #read} returned null, against its contract
     */
    default boolean contains(long segment) throws IOException {
        Optional<byte[]> output = read(segment);
        if (output == null) {
            throw new IllegalStateException("the OutputStore broke its contract, read(" + segment
                    + ") returned null instead of an Optional");
        }
        return output.isPresent();
    }
}
