package dev.orderly.engine.internal.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The listener driven call by call, with a recording of its events read back from a file: each event that opens
 * ends with the right outcome, including those the request's end cuts short. (JfrEventsTest runs a real request.)
 *
 * <p>Equivalent mutants, not tested: removing the {@code end()} before each {@code commit()} of a wait, a dial, a run
 * or a delivery. With no threshold set for these events, {@code commit()} ends an event that was not ended, so the
 * two differ by the few nanoseconds between the calls: no recording can tell them apart. The explicit {@code end()}
 * stays so that {@code shouldCommit()} measures the duration against a threshold a user sets.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JfrListenerTest {

    private static final RequestResult NOTHING = new RequestResult(0, 0, 0, 0, 0, 0, 0, Duration.ZERO, Duration.ZERO);
    private static final JobKey A = new JobKey(1, 0);
    private static final JobKey B = new JobKey(2, 0);

    @TempDir
    Path dir;

    private static Job job(JobKey key, int attempt) {
        return new Job("r-1", key, attempt);
    }

    /** The events {@code calls} committed, as "type segment/attempt outcome-or-cause", in the order committed. */
    private List<String> record(Consumer<JfrListener> calls) throws IOException {
        Path file = dir.resolve("events.jfr");
        try (Recording recording = new Recording()) {
            for (String type : List.of("LaunchWait", "Dial", "JobRun", "SegmentDelivered")) {
                recording.enable("dev.orderly." + type);
            }
            recording.start();
            calls.accept(new JfrListener("r-1", RequestListener.NONE));
            recording.stop();
            recording.dump(file);
        }
        // One thread committed them all: its buffer keeps them in the order committed.
        return RecordingFile.readAllEvents(file).stream().map(JfrListenerTest::line).toList();
    }

    private static String line(RecordedEvent e) {
        String type = e.getEventType().getName().substring("dev.orderly.".length());
        String what = switch (type) {
            case "LaunchWait" -> e.getString("cause");
            case "Dial", "JobRun" -> e.getString("outcome");
            default -> "";
        };
        String attempt = type.equals("SegmentDelivered") ? "" : "/" + e.getInt("attempt");
        return (type + " " + e.getLong("segment") + attempt + " " + what).strip();
    }

    @Test
    void aJoinARefusalAndAFailureEachOpenAWaitThatTheNextDialCloses() throws IOException {
        List<String> events = record(listener -> {
            listener.onQueued(A);
            listener.onDial(job(A, 1));
            listener.onRefused(job(A, 1), Tier2Exception.refused("full"));
            listener.onDial(job(A, 2));
            listener.onAdmitted(job(A, 2));
            listener.onFailed(job(A, 2), Tier2Exception.retryable("reset", null));
            listener.onDial(job(A, 3));
            listener.onAdmitted(job(A, 3));
            listener.onJobDone(job(A, 3));
            listener.onSegmentDelivered(1);
        });
        assertEquals(List.of("LaunchWait 1/1 queued", "Dial 1/1 refused", "LaunchWait 1/2 refused",
                "Dial 1/2 admitted", "JobRun 1/2 retryable", "LaunchWait 1/3 failed", "Dial 1/3 admitted",
                "JobRun 1/3 done", "SegmentDelivered 1"), events);
    }

    @Test
    void aFatalFailureOpensNoWaitAndAnAbandonedRunIsRecordedAsSuch() throws IOException {
        List<String> events = record(listener -> {
            listener.onDial(job(A, 1));
            listener.onAdmitted(job(A, 1));
            listener.onFailed(job(A, 1), Tier2Exception.fatal("bad module", null));
            listener.onDial(job(B, 1));
            listener.onAdmitted(job(B, 1));
            listener.onAbandoned(B);
            listener.onRequestCancelled(NOTHING);
        });
        assertEquals(List.of("Dial 1/1 admitted", "JobRun 1/1 fatal", "Dial 2/1 admitted", "JobRun 2/1 abandoned"),
                events);
    }

    @Test
    void theEndOfTheRequestClosesTheDialsAndRunsStillOpenAsCancelled() throws IOException {
        List<Consumer<JfrListener>> ends = List.of(
                listener -> listener.onRequestDone(NOTHING),
                listener -> listener.onRequestFailed(NOTHING, new RequestFailedException("request r-1 failed", null)),
                listener -> listener.onRequestCancelled(NOTHING));
        for (Consumer<JfrListener> end : ends) {
            List<String> events = record(listener -> {
                listener.onDial(job(A, 1));
                listener.onAdmitted(job(A, 1));
                listener.onDial(job(B, 4));
                listener.onQueued(new JobKey(3, 0));
                end.accept(listener);
            });
            assertEquals(List.of("Dial 1/1 admitted", "Dial 2/4 cancelled", "JobRun 1/1 cancelled"), events);
        }
    }
}
