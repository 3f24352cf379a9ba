package dev.orderly.sim.run;

import dev.orderly.api.SegmentConsumer;
import dev.orderly.sim.fleet.TenantDoor;
import dev.orderly.sim.fleet.TimeScale;
import java.time.Duration;
import java.util.Arrays;

/**
 * The client of one tenant's request: it checks that every segment arrives once, in order, with the output its job
 * wrote, spends {@code readTime} (simulated) on each, and tells the {@link TenantRecorder} when it received each
 * segment and when it is done reading it; the recorder counts the waits between (and the last one, if the request
 * fails).
 *
 * <p>The engine calls it from one thread at a time; {@code expected} is only touched there, and each call
 * happens-after the previous one (the engine hands segments over in order).
 */
final class SimulatedClient implements SegmentConsumer {

    private final TenantDoor tier2;
    private final TenantRecorder recorder;
    private final TimeScale timeScale;
    private final Duration readTime;
    private long expected;

    SimulatedClient(TenantDoor tier2, TenantRecorder recorder, TimeScale timeScale, Duration readTime) {
        this.tier2 = tier2;
        this.recorder = recorder;
        this.timeScale = timeScale;
        this.readTime = readTime;
    }

    @Override
    public void accept(long segment, byte[] output) throws InterruptedException {
        long at = System.nanoTime() - recorder.origin();
        if (segment != expected) {
            throw new IllegalStateException(tier2.name() + ": client received segment " + segment
                    + " while it expected segment " + expected);
        }
        if (!Arrays.equals(output, tier2.expectedOutput(segment))) {
            throw new IllegalStateException(tier2.name() + ": segment " + segment + " has the wrong output");
        }
        recorder.delivered(segment, at);
        expected++;
        timeScale.sleep(readTime);
        recorder.clientWaiting(System.nanoTime() - recorder.origin());
    }
}
