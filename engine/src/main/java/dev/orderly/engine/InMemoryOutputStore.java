package dev.orderly.engine;

import dev.orderly.api.OutputStore;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * An {@link OutputStore} held in memory: what a tier2 (or a test) {@linkplain #write writes} is what the engine reads.
 *
 * <p>Outputs are copied in and out, so a caller can not change what is stored. This class is thread-safe.
 */
public final class InMemoryOutputStore implements OutputStore {

    private final ConcurrentMap<Long, byte[]> outputs = new ConcurrentHashMap<>();

    /** Stores {@code output} as the output of {@code segment}, replacing any earlier one. */
    public void write(long segment, byte[] output) {
        Objects.requireNonNull(output, "output");
        outputs.put(segment, output.clone());
    }

    /** Forgets the output of {@code segment}; a later {@link #read} finds none. */
    public void delete(long segment) {
        outputs.remove(segment);
    }

    @Override
    public Optional<byte[]> read(long segment) {
        byte[] output = outputs.get(segment);
        return output == null ? Optional.empty() : Optional.of(output.clone());
    }

    /** The number of segments with an output. */
    public int size() {
        return outputs.size();
    }
}
