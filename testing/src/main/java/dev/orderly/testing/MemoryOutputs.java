package dev.orderly.testing;

import dev.orderly.api.OutputStore;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The outputs a fake tier2 wrote for one request: segment to bytes. A concurrent map, so a write by a job's thread
 * happens-before a read that sees it. Thread-safe.
 */
final class MemoryOutputs implements OutputStore, OutputSink {

    private final Map<Long, byte[]> outputs = new ConcurrentHashMap<>();

    /** What a successful last-stage job of {@code segment} writes: {@code "output <segment>"} in UTF-8. */
    static byte[] outputOf(long segment) {
        return ("output " + segment).getBytes(StandardCharsets.UTF_8);
    }

    void write(long segment) {
        write(segment, outputOf(segment));
    }

    @Override
    public void write(long segment, byte[] output) {
        outputs.put(segment, output.clone());
    }

    @Override
    public void delete(long segment) {
        outputs.remove(segment);
    }

    @Override
    public Optional<byte[]> read(long segment) {
        return Optional.ofNullable(outputs.get(segment)).map(byte[]::clone);
    }
}
