package dev.orderly.api;

import java.io.IOException;
import java.util.Optional;

/**
 * Where tier2 jobs leave the last stage's output of each segment, and where the engine reads it back to hand it to
 * the client. Implementations must be safe to call from many threads.
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
}
