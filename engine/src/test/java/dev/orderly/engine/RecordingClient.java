package dev.orderly.engine;

import dev.orderly.api.SegmentConsumer;
import dev.orderly.testing.ScriptedTier2;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A client that records what it receives and notices two calls at once. */
public final class RecordingClient implements SegmentConsumer {

    private final List<Long> segments = new CopyOnWriteArrayList<>();
    private final List<String> wrongOutputs = new CopyOnWriteArrayList<>();
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger overlaps = new AtomicInteger();

    @Override
    public void accept(long segment, byte[] output) throws Exception {
        if (inside.incrementAndGet() > 1) {
            overlaps.incrementAndGet();
        }
        try {
            if (!Arrays.equals(output, ScriptedTier2.outputOf(segment))) {
                wrongOutputs.add("segment " + segment);
            }
            segments.add(segment);
        } finally {
            inside.decrementAndGet();
        }
    }

    public List<Long> segments() {
        return segments;
    }

    public List<String> wrongOutputs() {
        return wrongOutputs;
    }

    public int overlaps() {
        return overlaps.get();
    }
}
