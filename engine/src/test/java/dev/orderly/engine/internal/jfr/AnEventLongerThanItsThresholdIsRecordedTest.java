package dev.orderly.engine.internal.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording that sets a threshold keeps the events that lasted at least that long: each of the listener's events
 * ends when what it measures ends (the wait at the dial, the dial at its answer, the run at its end, a delivery at the
 * next), so its duration is that span and the threshold is weighed against it. Every step here lasts at least a
 * millisecond, a million times the threshold of a nanosecond.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnEventLongerThanItsThresholdIsRecordedTest {

    private static final JobKey KEY = new JobKey(4, 1);
    private static final Duration STEP = Duration.ofMillis(1);
    private static final List<String> TYPES = List.of("LaunchWait", "Dial", "JobRun", "SegmentDelivered");

    @TempDir
    Path dir;

    /** Lets at least {@link #STEP} pass on the clock JFR's durations are read from. */
    private static void aStepPasses() {
        long end = System.nanoTime() + STEP.toNanos();
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }

    @Test
    void everyEventOfAJobAndADeliveryOverTheThresholdIsRecordedWithItsDuration() throws IOException {
        Path file = dir.resolve("threshold.jfr");
        try (Recording recording = new Recording()) {
            for (String type : TYPES) {
                recording.enable("dev.orderly." + type).withThreshold(Duration.ofNanos(1));
            }
            recording.start();
            JfrListener listener = new JfrListener("r-1", RequestListener.NONE);
            Job job = new Job("r-1", KEY, 1);
            listener.onQueued(KEY);
            aStepPasses();
            listener.onDial(job);
            aStepPasses();
            listener.onAdmitted(job);
            aStepPasses();
            listener.onJobDone(job);
            listener.onSegmentDelivered(4);
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().startsWith("dev.orderly."))
                .toList();
        assertEquals(List.of("dev.orderly.Dial", "dev.orderly.JobRun", "dev.orderly.LaunchWait",
                "dev.orderly.SegmentDelivered"),
                events.stream().map(e -> e.getEventType().getName()).sorted().toList(),
                "one event of each kind, each longer than the threshold");
        for (RecordedEvent event : events) {
            assertTrue(event.getDuration().compareTo(STEP) >= 0, event.getEventType().getName() + " lasted "
                    + event.getDuration());
        }
    }
}
