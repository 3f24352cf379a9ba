package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.testlog.LogCapture;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.event.Level;

/** Every job log line carries the request id, segment and stage in the MDC; each request logs one info summary. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LoggingTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 12, 2, 3);

    @AfterEach
    void stopCapture() {
        LogCapture.stop();
    }

    @Test
    void jobLinesCarryRequestSegmentAndStageInTheMdcAndEachRequestLogsOneSummary() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> switch (job.attempt()) {
            case 1 -> job.key().segment() % 3 == 0 ? Script.refuse(1) : Script.succeed();
            case 2 -> job.key().segment() % 3 == 0
                    ? Script.throwOnAwait(Tier2Exception.retryable("stream reset", null)) : Script.succeed();
            default -> Script.succeed();
        });
        AtomicInteger jobsDone = new AtomicInteger();
        RequestListener countingJobsDone = new RequestListener() {
            @Override
            public void onJobDone(Job job) {
                jobsDone.incrementAndGet();
            }
        };
        LogCapture.start();

        Orderly.engine(Fixtures.fast()).run(Request.of(PLAN, tier2, store, new RecordingClient()).withId("req-log")
                .withListener(countingJobsDone));
        List<LogCapture.Event> events = LogCapture.stop();

        List<LogCapture.Event> jobLines = events.stream().filter(e -> e.logger().endsWith(".JobRunner")).toList();
        assertTrue(jobLines.stream().anyMatch(e -> e.level() == Level.DEBUG), "a debug line per dial");
        assertTrue(jobLines.stream().anyMatch(e -> e.level() == Level.WARN), "a warn line per failure");
        assertEquals(0, jobLines.stream().filter(e -> e.level() == Level.INFO).count(),
                "one info line per job is noise at scale");
        // As the listener heard them: the tier2's count of calls that succeeded is racy too (a call may succeed just as
        // its unit is covered by a higher stage, and its job end as abandoned), and so is the script's.
        assertTrue(jobsDone.get() >= PLAN.segmentCount(), "every segment's last stage done by a job: " + jobsDone);
        assertTrue(jobsDone.get() <= tier2.succeededCalls(),
                jobsDone + " jobs done, " + tier2.succeededCalls() + " calls succeeded on the tier2");
        assertEquals(jobsDone.get(),
                jobLines.stream().filter(e -> e.message().contains(" done after ")).count(), "a line per job done");
        for (LogCapture.Event line : jobLines) {
            String unit = "segment " + line.mdc().get("segment") + " stage " + line.mdc().get("stage");
            assertEquals("req-log", line.mdc().get("request"), line.toString());
            assertTrue(line.level() == Level.DEBUG || line.message().startsWith(unit), line.toString());
        }
        List<LogCapture.Event> summaries = events.stream()
                .filter(e -> e.level() == Level.INFO && e.logger().endsWith(".OrderlyEngine")).toList();
        assertEquals(1, summaries.size(), summaries.toString());
        assertTrue(summaries.get(0).message().startsWith("request req-log done: 12 segment(s) delivered in "),
                "nothing was found in the store, so the summary does not mention it: " + summaries.get(0).message());
        assertTrue(summaries.get(0).message().matches(".* \\(first after \\d+ ms\\), .*"),
                "the summary says when the first segment came: " + summaries.get(0).message());
    }

    @Test
    void theWalkersLinesCarryTheRequestAndTheSegmentInTheMdc() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        AtomicBoolean dropped = new AtomicBoolean();
        // Segment 2's first output never reaches the store: the walker re-runs it and says so.
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, (segment, output) -> {
            if (segment != 2 || !dropped.compareAndSet(false, true)) {
                store.write(segment, output);
            }
        }, job -> Script.succeed());
        LogCapture.start();

        Orderly.engine(Fixtures.fast()).run(Request.of(PLAN, tier2, store, new RecordingClient()).withId("req-walk"));
        List<LogCapture.Event> walkerLines = LogCapture.stop().stream()
                .filter(e -> e.logger().endsWith(".OutputWalker")).toList();

        LogCapture.Event rerun = walkerLines.stream().filter(e -> e.message().contains("output missing")).findFirst()
                .orElseThrow(() -> new AssertionError("no re-run line among " + walkerLines));
        assertEquals("req-walk", rerun.mdc().get("request"), rerun.toString());
        assertEquals("2", rerun.mdc().get("segment"), rerun.toString());
    }

    @Test
    void aResumedRequestsSummarySaysHowManySegmentsWereFoundInTheStore() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        for (long segment = 0; segment < 3; segment++) {
            store.write(segment, ScriptedTier2.outputOf(segment));
        }
        LogCapture.start();

        Orderly.engine(Fixtures.fast()).run(Request.of(PLAN, tier2, store, new RecordingClient())
                .withId("req-resumed").withResume(true));
        List<LogCapture.Event> events = LogCapture.stop();

        List<String> summaries = events.stream()
                .filter(e -> e.level() == Level.INFO && e.logger().endsWith(".OrderlyEngine"))
                .map(LogCapture.Event::message).toList();
        assertEquals(1, summaries.size(), summaries.toString());
        assertTrue(summaries.get(0).startsWith("request req-resumed done: 12 segment(s) delivered (3 found in the"
                + " store) in "), summaries.get(0));
    }

    @Test
    void aFailedRequestLogsOneSummaryNamingTheFailure() {
        InMemoryOutputStore store = new InMemoryOutputStore();
        JobKey unit = new JobKey(4, 1);
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> job.key().equals(unit)
                ? Script.throwOnAwait(Tier2Exception.fatal("bad module", null)) : Script.succeed());
        LogCapture.start();

        assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(PLAN, tier2, store, new RecordingClient()).withId("req-bad")));
        List<LogCapture.Event> events = LogCapture.stop();

        List<LogCapture.Event> summaries = events.stream()
                .filter(e -> e.level() == Level.INFO && e.logger().endsWith(".OrderlyEngine")).toList();
        assertEquals(1, summaries.size(), summaries.toString());
        assertTrue(summaries.get(0).message().startsWith(
                "request req-bad failed: segment 4 stage 1 failed fatally on attempt 1, giving up: bad module"),
                summaries.get(0).message());
    }

    /** Also found: a throwing listener logged a full stack trace per event; now the first, then a count. */
    @Test
    void aThrowingListenerLogsAFullStackTracePerEvent() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        dev.orderly.api.RequestListener hostile = new dev.orderly.api.RequestListener() {
            @Override
            public void onSegmentDelivered(long segment) {
                calls.incrementAndGet();
                throw new IllegalStateException("listener bug");
            }
        };
        LogCapture.start();

        Orderly.engine(Fixtures.fast()).run(Request.of(PLAN, tier2, store, new RecordingClient())
                .withId("req-hostile").withListener(hostile));
        List<LogCapture.Event> events = LogCapture.stop();

        assertEquals(12, calls.get());
        List<LogCapture.Event> warnings = events.stream()
                .filter(e -> e.level() == Level.WARN && e.logger().endsWith(".SafeListener")).toList();
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).thrown() instanceof IllegalStateException, warnings.get(0).toString());
        assertEquals("request req-hostile: the listener threw 11 more time(s) after the first (not logged)",
                warnings.get(1).message());
        assertEquals(null, warnings.get(1).thrown());
    }

    @Test
    void aListenerThatThrowsOnceIsLoggedOnceWithNoCountAfterIt() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        dev.orderly.api.RequestListener onceHostile = new dev.orderly.api.RequestListener() {
            @Override
            public void onSegmentDelivered(long segment) {
                if (segment == PLAN.startSegment()) {
                    throw new IllegalStateException("listener bug");
                }
            }
        };
        LogCapture.start();

        Orderly.engine(Fixtures.fast()).run(Request.of(PLAN, tier2, store, new RecordingClient())
                .withId("req-once").withListener(onceHostile));
        List<LogCapture.Event> events = LogCapture.stop();

        List<LogCapture.Event> warnings = events.stream()
                .filter(e -> e.level() == Level.WARN && e.logger().endsWith(".SafeListener")).toList();
        assertEquals(1, warnings.size(), "the first failure, and no \"0 more time(s)\": " + warnings);
        assertTrue(warnings.get(0).thrown() instanceof IllegalStateException, warnings.get(0).toString());
    }
    /**
     * Found: a listener that threw from the request's end event (called on the caller's thread, which has no MDC of
     * the request) was logged as "request listener threw from onRequestDone", naming no request.
     */
    @Test
    void bugAListenerThatThrowsFromTheEndEventIsLoggedNamingTheRequest() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        RequestListener throwsAtTheEnd = new RequestListener() {
            @Override
            public void onRequestDone(RequestResult result) {
                throw new IllegalStateException("listener bug");
            }
        };
        LogCapture.start();

        Orderly.engine(Fixtures.fast()).run(Request.of(PLAN, tier2, store, new RecordingClient())
                .withId("req-end").withListener(throwsAtTheEnd));
        List<LogCapture.Event> events = LogCapture.stop();

        List<LogCapture.Event> warnings = events.stream()
                .filter(e -> e.level() == Level.WARN && e.logger().endsWith(".SafeListener")).toList();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).message().startsWith("request req-end: "), warnings.get(0).toString());
        assertTrue(warnings.get(0).thrown() instanceof IllegalStateException, warnings.get(0).toString());
    }
    /**
     * Found: with resume, a segment the store said it had ({@code contains}) but whose read then found nothing was
     * re-run with the WARN "output missing after its job succeeded": no job of it had run, and the line sent whoever
     * read it looking for one. It now says the store had it at the look-up and not at the read.
     */
    @Test
    void bugAStoredOutputGoneAtItsReadIsNotBlamedOnAJob() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        for (long segment = 0; segment < 3; segment++) {
            store.write(segment, ScriptedTier2.outputOf(segment));
        }
        AtomicBoolean gone = new AtomicBoolean();
        dev.orderly.api.OutputStore goneOnce = new dev.orderly.api.OutputStore() {
            @Override
            public java.util.Optional<byte[]> read(long segment) {
                if (segment == 1 && gone.compareAndSet(false, true)) {
                    store.delete(1); // deleted between the look-up and the read
                }
                return store.read(segment);
            }

            @Override
            public boolean contains(long segment) {
                return store.read(segment).isPresent();
            }
        };
        LogCapture.start();

        Orderly.engine(Fixtures.fast()).run(Request.of(PLAN, tier2, goneOnce, new RecordingClient())
                .withId("req-gone").withResume(true));
        List<LogCapture.Event> events = LogCapture.stop();

        List<String> reruns = events.stream()
                .filter(e -> e.level() == Level.WARN && e.logger().endsWith(".OutputWalker"))
                .map(LogCapture.Event::message).toList();
        assertEquals(List.of("segment 1 stage 1 output found in the store at its look-up but missing at its read;"
                + " re-run 1 of 3"), reruns);
    }
}
