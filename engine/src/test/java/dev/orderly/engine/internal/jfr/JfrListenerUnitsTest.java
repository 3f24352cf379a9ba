package dev.orderly.engine.internal.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The listener keeps a unit's open events only while one is open: a job that is done, failed for good or abandoned
 * leaves nothing behind (a request of many segments would otherwise keep one entry per job until it ends), whichever
 * event types the recording enables. The map is private state with no other window, so the test reads its size.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JfrListenerUnitsTest {

    private static final RequestResult NOTHING = new RequestResult(0, 0, 0, 0, 0, 0, 0, Duration.ZERO, Duration.ZERO);
    private static final JobKey A = new JobKey(1, 0);
    private static final JobKey B = new JobKey(2, 1);

    @TempDir
    Path dir;

    private static Job job(JobKey key, int attempt) {
        return new Job("r-1", key, attempt);
    }

    /** The listener's map of open events, or null while none was made. */
    private static Map<?, ?> openMap(JfrListener listener) {
        try {
            Field open = JfrListener.class.getDeclaredField("open");
            open.setAccessible(true);
            return (Map<?, ?>) open.get(listener);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("JfrListener keeps its open events in a field named open", e);
        }
    }

    private static int openUnits(JfrListener listener) {
        Map<?, ?> open = openMap(listener);
        return open == null ? 0 : open.size();
    }

    /** What one run of {@code calls} left behind, with only {@code types} enabled. */
    private record Trace(List<String> events, List<Integer> openAfterEachStep) {}

    private Trace record(Set<String> types, List<Consumer<JfrListener>> steps) throws IOException {
        return record(types, RequestListener.NONE, steps);
    }

    private Trace record(Set<String> types, RequestListener next, List<Consumer<JfrListener>> steps)
            throws IOException {
        return record(types, next, steps, listener -> { });
    }

    /** As above; {@code atTheEnd} looks at the listener after the last step, with the recording still running. */
    private Trace record(Set<String> types, RequestListener next, List<Consumer<JfrListener>> steps,
            Consumer<JfrListener> atTheEnd) throws IOException {
        return record(types, () -> false, next, steps, atTheEnd);
    }

    /** As above, for a listener whose jobs that abandon their runs were cut short by the request's end if {@code cut}. */
    private Trace record(Set<String> types, BooleanSupplier cut, RequestListener next,
            List<Consumer<JfrListener>> steps, Consumer<JfrListener> atTheEnd) throws IOException {
        Path file = dir.resolve("events-" + System.nanoTime() + ".jfr");
        List<Integer> open = new ArrayList<>();
        try (Recording recording = new Recording()) {
            for (String type : ALL) {
                // An event type with no setting in a recording is enabled by default: disable the others by name.
                if (types.contains(type)) {
                    recording.enable("dev.orderly." + type);
                } else {
                    recording.disable("dev.orderly." + type);
                }
            }
            recording.start();
            JfrListener listener = new JfrListener("r-1", next, cut);
            for (Consumer<JfrListener> step : steps) {
                step.accept(listener);
                open.add(openUnits(listener));
            }
            atTheEnd.accept(listener);
            recording.stop();
            recording.dump(file);
        }
        List<String> events = RecordingFile.readAllEvents(file).stream()
                .filter(e -> !e.getEventType().getName().equals("dev.orderly.SegmentDelivered"))
                .map(JfrListenerUnitsTest::line)
                .toList();
        return new Trace(events, open);
    }

    private static String line(RecordedEvent e) {
        String type = e.getEventType().getName().substring("dev.orderly.".length());
        String what = type.equals("LaunchWait") ? e.getString("cause") : e.getString("outcome");
        return type + " " + e.getString("requestId") + " " + e.getLong("segment") + "." + e.getInt("stage") + "/"
                + e.getInt("attempt") + " " + what;
    }

    private static final Set<String> ALL = Set.of("LaunchWait", "Dial", "JobRun", "SegmentDelivered");

    @Test
    void aJobThatIsDoneLeavesNothingOpen() throws IOException {
        Trace trace = record(ALL, List.of(
                l -> l.onQueued(B),
                l -> l.onDial(job(B, 1)),
                l -> l.onAdmitted(job(B, 1)),
                l -> l.onJobDone(job(B, 1))));
        assertEquals(List.of(1, 1, 1, 0), trace.openAfterEachStep());
        assertEquals(List.of("LaunchWait r-1 2.1/1 queued", "Dial r-1 2.1/1 admitted", "JobRun r-1 2.1/1 done"),
                trace.events());
    }

    @Test
    void aJobThatFailsForGoodLeavesNothingOpenButOneThatWillRetryWaits() throws IOException {
        Trace trace = record(ALL, List.of(
                l -> l.onDial(job(A, 1)),
                l -> l.onAdmitted(job(A, 1)),
                l -> l.onFailed(job(A, 1), Tier2Exception.retryable("reset", null)),
                l -> l.onDial(job(A, 2)),
                l -> l.onFailed(job(A, 2), Tier2Exception.fatal("bad module", null))));
        assertEquals(List.of(1, 1, 1, 1, 0), trace.openAfterEachStep());
        assertEquals(List.of("Dial r-1 1.0/1 admitted", "JobRun r-1 1.0/1 retryable", "LaunchWait r-1 1.0/2 failed",
                "Dial r-1 1.0/2 fatal"), trace.events());
    }

    @Test
    void aFatalFailureWithNoWaitRecordedLeavesNothingOpen() throws IOException {
        Trace trace = record(Set.of("Dial", "JobRun"), List.of(
                l -> l.onDial(job(A, 1)),
                l -> l.onRefused(job(A, 1), Tier2Exception.refused("full")),
                l -> l.onDial(job(A, 2)),
                l -> l.onAdmitted(job(A, 2)),
                l -> l.onFailed(job(A, 2), Tier2Exception.fatal("bad module", null))));
        assertEquals(List.of(1, 0, 1, 1, 0), trace.openAfterEachStep());
        assertEquals(List.of("Dial r-1 1.0/1 refused", "Dial r-1 1.0/2 admitted", "JobRun r-1 1.0/2 fatal"),
                trace.events());
    }

    @Test
    void anAbandonedJobLeavesNothingOpenWhereverItWas() throws IOException {
        Trace trace = record(ALL, List.of(
                l -> l.onQueued(A),
                l -> l.onAbandoned(A),
                l -> l.onDial(job(B, 1)),
                l -> l.onAbandoned(B),
                l -> l.onDial(job(A, 1)),
                l -> l.onAdmitted(job(A, 1)),
                l -> l.onAbandoned(A)));
        assertEquals(List.of(1, 0, 1, 0, 1, 1, 0), trace.openAfterEachStep());
        assertEquals(List.of("Dial r-1 1.0/1 admitted", "JobRun r-1 1.0/1 abandoned"), trace.events());
    }

    @Test
    void aDialCutShortByTheRequestsEndIsRecordedAsCancelledAndLeavesNothingOpen() throws IOException {
        Trace trace = record(ALL, () -> true, RequestListener.NONE, List.of(
                l -> l.onQueued(A),
                l -> l.onDial(job(A, 1)),
                l -> l.onAbandoned(A)),
                l -> { });
        assertEquals(List.of(1, 1, 0), trace.openAfterEachStep());
        assertEquals(List.of("LaunchWait r-1 1.0/1 queued", "Dial r-1 1.0/1 cancelled"), trace.events());
    }

    @Test
    void withOnlyWaitsRecordedTheDialThatEndsTheWaitLeavesNothingOpen() throws IOException {
        Trace trace = record(Set.of("LaunchWait"), List.of(
                l -> l.onQueued(A),
                l -> l.onDial(job(A, 1)),
                l -> l.onAdmitted(job(A, 1)),
                l -> l.onJobDone(job(A, 1))));
        assertEquals(List.of(1, 0, 0, 0), trace.openAfterEachStep());
        assertEquals(List.of("LaunchWait r-1 1.0/1 queued"), trace.events());
    }

    @Test
    void withOnlyDialsRecordedTheAdmissionLeavesNothingOpen() throws IOException {
        Trace trace = record(Set.of("Dial"), List.of(
                l -> l.onQueued(A),
                l -> l.onDial(job(A, 1)),
                l -> l.onAdmitted(job(A, 1)),
                l -> l.onJobDone(job(A, 1))));
        assertEquals(List.of(0, 1, 0, 0), trace.openAfterEachStep());
        assertEquals(List.of("Dial r-1 1.0/1 admitted"), trace.events());
    }

    @Test
    void withOnlyRunsRecordedAnAdmissionOpensTheRunOnItsOwn() throws IOException {
        Trace trace = record(Set.of("JobRun"), List.of(
                l -> l.onQueued(B),
                l -> l.onDial(job(B, 3)),
                l -> l.onAdmitted(job(B, 3)),
                l -> l.onJobDone(job(B, 3))));
        assertEquals(List.of(0, 0, 1, 0), trace.openAfterEachStep());
        assertEquals(List.of("JobRun r-1 2.1/3 done"), trace.events());
    }

    @Test
    void theEndOfTheRequestLeavesNothingOpenAWaitIncluded() throws IOException {
        for (Consumer<JfrListener> end : List.<Consumer<JfrListener>>of(
                l -> l.onRequestDone(NOTHING),
                l -> l.onRequestFailed(NOTHING, new RequestFailedException("request r-1 failed", null)),
                l -> l.onRequestCancelled(NOTHING))) {
            Trace trace = record(ALL, List.of(
                    l -> l.onQueued(A),
                    l -> l.onDial(job(B, 1)),
                    end));
            assertEquals(List.of(1, 2, 0), trace.openAfterEachStep());
            assertEquals(List.of("Dial r-1 2.1/1 cancelled"), trace.events());
        }
    }

    @Test
    void everyListenerEventIsPassedOnToTheNextListenerWhateverIsRecorded() throws IOException {
        for (Set<String> types : List.of(ALL, Set.<String>of())) {
            List<String> heard = new ArrayList<>();
            RequestListener next = new RequestListener() {
                @Override
                public void onQueued(JobKey key) {
                    heard.add("queued " + key);
                }

                @Override
                public void onDial(Job job) {
                    heard.add("dial " + job.attempt());
                }

                @Override
                public void onAdmitted(Job job) {
                    heard.add("admitted " + job.attempt());
                }

                @Override
                public void onRefused(Job job, Tier2Exception cause) {
                    heard.add("refused " + cause.getMessage());
                }

                @Override
                public void onFailed(Job job, Tier2Exception cause) {
                    heard.add("failed " + cause.getMessage());
                }

                @Override
                public void onJobDone(Job job) {
                    heard.add("done " + job.attempt());
                }

                @Override
                public void onRerun(JobKey key) {
                    heard.add("rerun " + key);
                }

                @Override
                public void onAbandoned(JobKey key) {
                    heard.add("abandoned " + key);
                }

                @Override
                public void onSegmentDelivered(long segment) {
                    heard.add("delivered " + segment);
                }

                @Override
                public void onRequestDone(RequestResult result) {
                    heard.add("request done");
                }

                @Override
                public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
                    heard.add("request failed " + failure.getMessage());
                }

                @Override
                public void onRequestCancelled(RequestResult soFar) {
                    heard.add("request cancelled");
                }
            };
            RequestFailedException failure = new RequestFailedException("request r-1 failed", null);
            record(types, next, List.of(
                    l -> l.onQueued(A),
                    l -> l.onDial(job(A, 1)),
                    l -> l.onRefused(job(A, 1), Tier2Exception.refused("full")),
                    l -> l.onDial(job(A, 2)),
                    l -> l.onAdmitted(job(A, 2)),
                    l -> l.onFailed(job(A, 2), Tier2Exception.retryable("reset", null)),
                    l -> l.onDial(job(A, 3)),
                    l -> l.onAdmitted(job(A, 3)),
                    l -> l.onJobDone(job(A, 3)),
                    l -> l.onRerun(A),
                    l -> l.onAbandoned(B),
                    l -> l.onSegmentDelivered(1),
                    l -> l.onRequestDone(NOTHING),
                    l -> l.onRequestFailed(NOTHING, failure),
                    l -> l.onRequestCancelled(NOTHING)));
            assertEquals(List.of("queued " + A, "dial 1", "refused full", "dial 2", "admitted 2", "failed reset",
                    "dial 3", "admitted 3", "done 3", "rerun " + A, "abandoned " + B, "delivered 1", "request done",
                    "request failed request r-1 failed", "request cancelled"), heard, "recording " + types);
        }
    }

    @Test
    void withNothingRecordedNothingIsKept() throws IOException {
        List<Map<?, ?>> mapAtTheEnd = new ArrayList<>();
        Trace trace = record(Set.of(), RequestListener.NONE, List.of(
                l -> l.onQueued(A),
                l -> l.onDial(job(A, 1)),
                l -> l.onAdmitted(job(A, 1)),
                l -> l.onFailed(job(A, 1), Tier2Exception.retryable("reset", null)),
                l -> l.onRefused(job(A, 2), Tier2Exception.refused("full"))),
                l -> mapAtTheEnd.add(openMap(l)));
        assertEquals(List.of(0, 0, 0, 0, 0), trace.openAfterEachStep());
        assertEquals(Collections.singletonList(null), mapAtTheEnd, "a map of open events was made");
        assertEquals(List.of(), trace.events());
    }
}
