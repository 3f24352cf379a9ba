package dev.orderly.bench.cost;

import java.io.IOException;
import java.text.ParseException;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * Runs a side with a JFR recording of the JDK's stock {@code default} profile going, with some of Orderly's own events
 * ({@code dev.orderly.*}) and of the hand-written executor's copies of them ({@link HandWrittenEvents}) enabled, every
 * other of them disabled. The recording starts before the side's timer and stops after it, so the figure is the cost
 * of a recording running, not of starting or dumping one.
 */
final class Jfr {

    /** Orderly's event types; the stock profile does not name them, so a recording enables them unless told not to. */
    static final List<String> ORDERLY_EVENTS =
            List.of("dev.orderly.LaunchWait", "dev.orderly.Dial", "dev.orderly.JobRun", "dev.orderly.SegmentDelivered");

    private Jfr() {
    }

    /**
     * {@code side} with a recording going that records every event of the types in {@code enabled} (no threshold, no
     * stack trace) and none of the other types of {@link #ORDERLY_EVENTS} and {@link HandWrittenEvents#NAMES}.
     */
    static Comparison.Side recording(List<String> enabled, Comparison.Side side) {
        return () -> {
            try (Recording recording = new Recording(stockProfile())) {
                for (String event : Stream.concat(ORDERLY_EVENTS.stream(), HandWrittenEvents.NAMES.stream()).toList()) {
                    if (enabled.contains(event)) {
                        recording.enable(event).withoutThreshold().withoutStackTrace();
                    } else {
                        recording.disable(event);
                    }
                }
                recording.setToDisk(true);
                recording.start();
                try {
                    return side.run();
                } finally {
                    recording.stop();
                }
            }
        };
    }

    private static Configuration stockProfile() throws IOException {
        try {
            return Configuration.getConfiguration("default");
        } catch (ParseException e) {
            throw new IOException("the JDK's default JFR profile does not parse", e);
        }
    }
}
