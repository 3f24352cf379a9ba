package dev.orderly.testing;

/**
 * Where a fake tier2 writes the output of a successful last-stage job, when the test keeps its own store (an
 * engine's {@code InMemoryOutputStore::write}, say) instead of the fake's. It is called from the job's thread; the
 * store must make the write visible to the thread that reads it.
 */
@FunctionalInterface
public interface OutputSink {

    /** Stores {@code output} as the last stage's output of {@code segment}. */
    void write(long segment, byte[] output);
}
