package dev.orderly.engine;

import static dev.orderly.engine.Fixtures.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One test per row of the retry table (refused: redial after the refused delay, uncounted; timeout and retryable
 * failure: counted against the unit's limits; fatal: the request fails), ordered and in the unordered baseline.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RetryPathTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 14, 3, 4);
    private static final JobKey UNIT = new JobKey(12, 2);

    private static EngineConfig config(boolean ordered) {
        return ordered ? Fixtures.fast() : Fixtures.fastUnordered();
    }

    /** Runs {@link #PLAN} where {@link #UNIT}'s dials follow {@code script} (by attempt) and every other dial is OK. */
    private static Outcome run(boolean ordered, Script... script) throws InterruptedException {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> job.key().equals(UNIT)
                && job.attempt() <= script.length ? script[job.attempt() - 1] : Script.succeed());
        RecordingClient client = new RecordingClient();
        try {
            RequestResult result = Orderly.engine(config(ordered)).run(Request.of(PLAN, tier2, store, client));
            return new Outcome(tier2, client, result, null);
        } catch (RequestFailedException e) {
            return new Outcome(tier2, client, null, e);
        }
    }

    private record Outcome(ScriptedTier2 tier2, RecordingClient client, RequestResult result,
            RequestFailedException failure) {

        void assertDeliveredEverything() {
            assertEquals(null, failure, "the request failed");
            assertEquals(range(0, 14), client.segments());
            assertCallsClosed();
        }

        void assertCallsClosed() {
            assertEquals(0, tier2.openCalls(), "open calls");
            assertEquals(0, tier2.doubleCloses(), "calls closed twice");
        }
    }

    private static Script[] times(int n, Script step) {
        Script[] steps = new Script[n];
        java.util.Arrays.fill(steps, step);
        return steps;
    }

    private static final Script STREAM_RESET =
            Script.throwOnAwait(Tier2Exception.retryable("stream reset", null));
    private static final Script DIAL_RETRYABLE =
            Script.throwOnDial(Tier2Exception.retryable("stream reset", null));
    private static final Script TIMEOUT =
            Script.throwOnAwait(Tier2Exception.executionTimeout("deadline exceeded"));

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void fourRetryableFailuresThenSuccessDelivers(boolean ordered) throws Exception {
        Outcome outcome = run(ordered, STREAM_RESET, DIAL_RETRYABLE, STREAM_RESET, DIAL_RETRYABLE);

        outcome.assertDeliveredEverything();
        assertEquals(5, outcome.tier2().log().dialsOf(UNIT));
        assertEquals(4, outcome.result().failures());
        assertEquals(0, outcome.result().executionTimeouts());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void fiveRetryableFailuresFailTheRequestNamingUnitCountAndLastError(boolean ordered) throws Exception {
        Outcome outcome = run(ordered, STREAM_RESET, DIAL_RETRYABLE, STREAM_RESET, DIAL_RETRYABLE, STREAM_RESET,
                Script.succeed());

        RequestFailedException failure = outcome.failure();
        assertEquals("segment 12 stage 2 failed 5 times, giving up: stream reset", failure.getMessage());
        assertEquals(Optional.of(UNIT), failure.key());
        Tier2Exception cause = assertInstanceOf(Tier2Exception.class, failure.getCause());
        assertEquals(Tier2Exception.Kind.RETRYABLE, cause.kind());
        assertEquals(5, outcome.tier2().log().dialsOf(UNIT));
        outcome.assertCallsClosed();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void oneExecutionTimeoutIsRetried(boolean ordered) throws Exception {
        Outcome outcome = run(ordered, TIMEOUT);

        outcome.assertDeliveredEverything();
        assertEquals(2, outcome.tier2().log().dialsOf(UNIT));
        assertEquals(1, outcome.result().executionTimeouts());
        assertEquals(0, outcome.result().failures());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void twoExecutionTimeoutsFailTheRequest(boolean ordered) throws Exception {
        Outcome outcome = run(ordered, TIMEOUT,
                Script.throwOnDial(Tier2Exception.executionTimeout("deadline exceeded on dial")),
                Script.succeed());

        RequestFailedException failure = outcome.failure();
        assertEquals("segment 12 stage 2 timed out 2 times, giving up: deadline exceeded on dial",
                failure.getMessage());
        assertEquals(Optional.of(UNIT), failure.key());
        assertEquals(2, outcome.tier2().log().dialsOf(UNIT));
        outcome.assertCallsClosed();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void timeoutsAndFailuresAreCountedSeparately(boolean ordered) throws Exception {
        Outcome outcome = run(ordered, TIMEOUT, STREAM_RESET, STREAM_RESET, STREAM_RESET, STREAM_RESET);

        outcome.assertDeliveredEverything();
        assertEquals(1, outcome.result().executionTimeouts());
        assertEquals(4, outcome.result().failures());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void fortyRefusalsCostNothing(boolean ordered) throws Exception {
        Script[] script = new Script[40];
        for (int i = 0; i < script.length; i++) {
            script[i] = i % 2 == 0 ? Script.refuse(1) : Script.unreachable(1);
        }
        Outcome outcome = run(ordered, script);

        outcome.assertDeliveredEverything();
        assertEquals(41, outcome.tier2().log().dialsOf(UNIT));
        assertEquals(40, outcome.result().refusals());
        assertEquals(0, outcome.result().failures());
        assertEquals(0, outcome.result().executionTimeouts());
        assertEquals(outcome.result().dials() - 40, outcome.result().admissions());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aFailedJobThatIsRefusedOnTheWayBackKeepsItsFailureCounted(boolean ordered) throws Exception {
        List<Script> script = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            script.add(STREAM_RESET);
            script.add(Script.refuse(1));
            script.add(Script.refuse(1));
        }
        script.add(STREAM_RESET);
        Outcome outcome = run(ordered, script.toArray(Script[]::new));

        assertEquals("segment 12 stage 2 failed 5 times, giving up: stream reset", outcome.failure().getMessage());
        assertEquals(13, outcome.tier2().log().dialsOf(UNIT));
        outcome.assertCallsClosed();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aFatalErrorFailsTheRequestAtOnce(boolean ordered) throws Exception {
        Outcome outcome = run(ordered, Script.throwOnAwait(Tier2Exception.fatal("bad module", null)));

        RequestFailedException failure = outcome.failure();
        assertEquals("segment 12 stage 2 failed fatally on attempt 1, giving up: bad module", failure.getMessage());
        assertEquals(Optional.of(UNIT), failure.key());
        assertEquals(1, outcome.tier2().log().dialsOf(UNIT));
        outcome.assertCallsClosed();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aRuntimeExceptionFromDialIsFatal(boolean ordered) throws Exception {
        IllegalStateException bug = new IllegalStateException("client bug");
        Outcome outcome = run(ordered, Script.throwOnDial(bug));

        RequestFailedException failure = outcome.failure();
        assertEquals(Optional.of(UNIT), failure.key());
        assertTrue(failure.getMessage().startsWith("segment 12 stage 2 failed fatally on attempt 1, giving up: "),
                failure.getMessage());
        assertTrue(failure.getMessage().contains("client bug"), failure.getMessage());
        Tier2Exception cause = assertInstanceOf(Tier2Exception.class, failure.getCause());
        assertEquals(Tier2Exception.Kind.FATAL, cause.kind());
        assertSame(bug, cause.getCause());
        assertEquals(1, outcome.tier2().log().dialsOf(UNIT));
        outcome.assertCallsClosed();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aRuntimeExceptionFromAwaitIsFatalAndTheCallIsClosed(boolean ordered) throws Exception {
        Outcome outcome = run(ordered, Script.throwOnAwait(new IllegalArgumentException("decoder bug")));

        RequestFailedException failure = outcome.failure();
        assertEquals(Optional.of(UNIT), failure.key());
        assertTrue(failure.getMessage().contains("decoder bug"), failure.getMessage());
        assertEquals(1, outcome.tier2().log().dialsOf(UNIT));
        outcome.assertCallsClosed();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void maxFailuresComesFromTheConfig(boolean ordered) {
        EngineConfig oneFailure = config(ordered).toBuilder().maxFailures(1).build();
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write,
                job -> job.key().equals(UNIT) ? STREAM_RESET : Script.succeed());

        RequestFailedException failure = assertThrows(RequestFailedException.class,
                () -> Orderly.engine(oneFailure).run(Request.of(PLAN, tier2, store, new RecordingClient())));

        assertEquals("segment 12 stage 2 failed 1 time, giving up: stream reset", failure.getMessage());
        assertEquals(1, tier2.log().dialsOf(UNIT));
    }

    /**
     * An Error is not a tier2 failure the retry path knows: the request fails at once with it as the cause, naming the
     * unit when the tier2 client threw it, and the segment's last stage when the reading client did.
     */
    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void anErrorThrownByAClientFailsTheRequestWithItAsTheCause(boolean ordered) {
        InMemoryOutputStore store = new InMemoryOutputStore();
        AssertionError bug = new AssertionError("client invariant broken");
        ScriptedTier2 scripted = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        dev.orderly.api.Tier2Client tier2 = job -> {
            if (job.key().equals(UNIT)) {
                throw bug;
            }
            return scripted.dial(job);
        };

        RequestFailedException failure = assertThrows(RequestFailedException.class, () -> Orderly.engine(
                config(ordered)).run(Request.of(PLAN, tier2, store, new RecordingClient()).withId("r-error")));
        assertEquals("segment 12 stage 2 failed with java.lang.AssertionError: client invariant broken on attempt 1,"
                + " giving up", failure.getMessage());
        assertSame(bug, failure.getCause());

        RequestFailedException readerFailure = assertThrows(RequestFailedException.class, () -> Orderly.engine(
                config(ordered)).run(Request.of(PLAN, scripted, store, (segment, output) -> {
                    throw bug;
                }).withId("r-reader")));
        // Named by the segment's last stage, as an exception from the client is.
        assertEquals("segment 0 stage 2: the client failed on segment 0: java.lang.AssertionError: client invariant"
                + " broken", readerFailure.getMessage());
        assertEquals(java.util.Optional.of(new dev.orderly.api.JobKey(0, 2)), readerFailure.key());
        assertSame(bug, readerFailure.getCause());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void unitsOtherThanTheFailingOneAreNotRedialed(boolean ordered) throws Exception {
        Outcome outcome = run(ordered, times(3, STREAM_RESET));

        outcome.assertDeliveredEverything();
        for (var job : outcome.tier2().log().dials()) {
            if (!job.key().equals(UNIT)) {
                assertEquals(1, job.attempt(), job.toString());
            }
        }
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aClientThatReturnsNoCallFailsTheRequestClearly(boolean ordered) {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 scripted = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        dev.orderly.api.Tier2Client tier2 = job -> job.key().equals(UNIT) ? null : scripted.dial(job);

        RequestFailedException failure = assertThrows(RequestFailedException.class,
                () -> Orderly.engine(config(ordered)).run(Request.of(PLAN, tier2, store, new RecordingClient())));

        assertEquals("segment 12 stage 2 failed fatally on attempt 1, giving up: "
                + "tier2 client returned no call from dial", failure.getMessage());
        assertEquals(0, scripted.openCalls());
    }
}
