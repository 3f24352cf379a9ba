package dev.orderly.testing;

import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Where a fake tier2 writes the output of a successful last-stage job, when the test keeps its own store (an
 * engine's {@code InMemoryOutputStore::write}, say) instead of the fake's. It is called from the job's thread; the
 * store must make the write visible to the thread that reads it.
 *
 * <p>A sink that is only a write ({@code store::write}) serves every script but one case: a {@link Script#loseOutput()}
 * of a segment whose output an earlier attempt already wrote through the sink needs that output removed, which only
 * a sink with {@link #delete(long)} can do ({@link #of(OutputSink, LongConsumer) of(store::write, store::delete)}).
 */
@FunctionalInterface
public interface OutputSink {

    /** Stores {@code output} as the last stage's output of {@code segment}. */
    void write(long segment, byte[] output);

    /**
     * Removes the last stage's output of {@code segment}, if there is one: what a {@link Script#loseOutput()} asks
     * when an earlier attempt of the segment wrote its output through this sink. The default can not remove anything
     * and throws {@link UnsupportedOperationException} saying so (the engine then fails the request, naming it as
     * the cause), rather than leave the output in the store for the engine to take as the lost job's.
     */
    default void delete(long segment) {
        throw new UnsupportedOperationException("this OutputSink can not delete the output of segment " + segment
                + ", which a Script.loseOutput() asks after an earlier attempt wrote it; make the sink with"
                + " OutputSink.of(store::write, store::delete), or implement delete");
    }

    /** A sink that writes with {@code write} and deletes with {@code delete}: {@code of(store::write, store::delete)}. */
    static OutputSink of(OutputSink write, LongConsumer delete) {
        Objects.requireNonNull(write, "write");
        Objects.requireNonNull(delete, "delete");
        return new OutputSink() {
            @Override
            public void write(long segment, byte[] output) {
                write.write(segment, output);
            }

            @Override
            public void delete(long segment) {
                delete.accept(segment);
            }
        };
    }
}
