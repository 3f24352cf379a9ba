package dev.orderly.bench.scale;

import dev.orderly.api.SegmentConsumer;
import dev.orderly.engine.InMemoryOutputStore;
import java.util.function.LongConsumer;

/**
 * A client that checks what it is handed, the way a scale run must before it reports a number: every segment exactly
 * once, in order, with the output the fleet wrote for it. Having read a segment it deletes the output from the store,
 * as a streaming consumer is done with it; the store would otherwise be the one thing that grows with the request.
 *
 * <p>Called by the engine from one thread at a time, so it keeps plain fields.
 */
final class CheckingClient implements SegmentConsumer {

    private final InMemoryOutputStore outputs;
    private final LongConsumer afterEach;
    private long expected;

    /**
     * @param startSegment the first segment of the request
     * @param afterEach told the number of segments delivered so far, after each one
     */
    CheckingClient(long startSegment, InMemoryOutputStore outputs, LongConsumer afterEach) {
        this.expected = startSegment;
        this.outputs = outputs;
        this.afterEach = afterEach;
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
        afterEach.accept(expected);
    }
}
