package dev.orderly.bench.scale;

import dev.orderly.api.SegmentConsumer;
import dev.orderly.engine.InMemoryOutputStore;

/**
 * The client of one request: checks that every segment arrives exactly once, in order, with its own output, then
 * deletes it from the store (a streaming client is done with it; the store would otherwise grow with the request).
 * Every {@code checkpoint} segments it may run a hook (the 10M run measures the live heap there).
 *
 * <p>The engine-cost benchmark and the scale runs both use it.
 *
 * <p>Called from one thread at a time (both the engine and the hand-written executor promise that), so plain fields.
 */
public final class CheckingConsumer implements SegmentConsumer {

    /** Run every {@code checkpoint} segments, told how many were delivered. */
    public interface Checkpoint {
        void reached(long delivered);
    }

    private final long start;
    private final InMemoryOutputStore outputs;
    private final long checkpoint;
    private final Checkpoint hook;
    private long expected;

    public CheckingConsumer(long start, InMemoryOutputStore outputs) {
        this(start, outputs, Long.MAX_VALUE, delivered -> { });
    }

    public CheckingConsumer(long start, InMemoryOutputStore outputs, long checkpoint, Checkpoint hook) {
        this.start = start;
        this.expected = start;
        this.outputs = outputs;
        this.checkpoint = checkpoint;
        this.hook = hook;
    }

    @Override
    public void accept(long segment, byte[] output) {
        if (segment != expected) {
            throw new IllegalStateException("segment " + segment + " delivered when " + expected + " was due");
        }
        if (output.length != 2 || output[0] != (byte) segment || output[1] != (byte) (segment >>> 8)) {
            throw new IllegalStateException("segment " + segment + " delivered with another segment's output");
        }
        outputs.delete(segment);
        expected++;
        long delivered = expected - start;
        if (delivered % checkpoint == 0) {
            hook.reached(delivered);
        }
    }

    /** Segments delivered so far. */
    public long delivered() {
        return expected - start;
    }
}
