package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.ThreadCensus;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One regression test per defect of issue 9 that this engine part fixes; each failed before its fix. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class Issue9RegressionTest {

    private static EngineConfig config(boolean ordered) {
        return ordered ? Fixtures.fast() : Fixtures.fastUnordered();
    }

    /**
     * The script of the defect-1 tests: {@code covered} does {@code step}; every other job succeeds once
     * {@code covered} has dialed. So segment 0's job holds its worker until {@code covered}'s job has started (else,
     * on a slow start, the higher stage would be launched first and shadow it), and the cover always comes while the
     * covered job is alive.
     */
    private static Script coveredFirst(dev.orderly.api.Job job, JobKey covered,
            CountDownLatch coveredDialed, Script step) throws InterruptedException {
        if (job.key().equals(covered)) {
            coveredDialed.countDown();
            return step;
        }
        coveredDialed.await();
        return Script.succeed();
    }

    /** Defect 5: a caller whose interrupt is pending when it calls run gets InterruptedException, nothing dialed. */
    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aPendingInterruptStillDials(boolean ordered) throws Exception {
        RequestPlan plan = new RequestPlan(0, 50, 2, 8);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.block());
        ThreadCensus census = new ThreadCensus();
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            Thread.currentThread().interrupt();
            try {
                census.engine(config(ordered)).run(Request.of(plan, tier2, store, new RecordingClient()));
                thrown.complete(null);
            } catch (Throwable t) {
                thrown.complete(t);
            }
        });

        assertInstanceOf(InterruptedException.class, thrown.get(10, TimeUnit.SECONDS));
        assertEquals(0, tier2.log().dials().size(), "dials: " + tier2.log().dials());
        assertEquals(0, census.created(), "threads created");
    }

    /**
     * Defect 1, per unit: plan (0, 2, 2, 2). Segment 1's stage-0 job blocks in await; its stage-1 job succeeds and
     * covers it. While the client still holds segment 1 (the request is running), the covered job's call is closed
     * and its thread gone: it holds no worker and no tier2 slot for nothing.
     */
    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aFinishedRequestWaitsForJobsNobodyNeeds(boolean ordered) throws Throwable {
        RequestPlan plan = new RequestPlan(0, 2, 2, 2);
        JobKey covered = new JobKey(1, 0);
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch coveredDialed = new CountDownLatch(1);
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> coveredFirst(job, covered, coveredDialed,
                Script.block()));
        CountDownLatch clientHolds = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RecordingClient recorder = new RecordingClient();
        ThreadCensus census = new ThreadCensus();
        Background run = new Background(census.engine(config(ordered)), Request.of(plan, tier2, store,
                (segment, output) -> {
                    recorder.accept(segment, output);
                    if (segment == 1) {
                        clientHolds.countDown();
                        release.await();
                    }
                }));
        try {
            assertTrue(clientHolds.await(10, TimeUnit.SECONDS), "segment 1 never reached the client");
            await().atMost(Duration.ofSeconds(10)).until(() -> tier2.openCalls() == 0 && tier2.blocked() == 0
                    && census.alive() == 1);
            assertFalse(run.isDone(), "the request is still running: the client holds segment 1");
        } finally {
            release.countDown();
        }
        run.get(10);
        assertEquals(1, tier2.log().dialsOf(covered), "the covered unit was dialed again");
        assertEquals(Fixtures.range(0, 2), recorder.segments());
        assertEquals(0, census.alive());
        assertEquals(0, tier2.doubleCloses());
    }

    /** Defect 1, a dial: a covered unit whose dial hangs is interrupted; run returns, nothing left blocked. */
    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aCoveredJobBlockedInDialIsCancelledToo(boolean ordered) throws Throwable {
        runWithACoveredUnit(config(ordered), Script.blockDial());
    }

    /** Defect 1, a delay: a covered unit sitting out a minute-long failure delay stops at once. */
    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aCoveredJobSittingOutADelayStopsAtOnce(boolean ordered) throws Throwable {
        runWithACoveredUnit(config(ordered).toBuilder().failureDelay(Duration.ofMinutes(1)).build(),
                Script.throwOnAwait(Tier2Exception.retryable("stream reset", null)));
    }

    /**
     * Plan (0, 2, 2, 2) where (1, 0) does {@code step} and is covered by (1, 1): its job stops while the request still
     * runs (the client holds the last segment until it has, or 5 s), not only when the request's end cancels
     * everything; run returns, nothing is left.
     */
    private static void runWithACoveredUnit(EngineConfig config, Script step) throws Throwable {
        RequestPlan plan = new RequestPlan(0, 2, 2, 2);
        JobKey covered = new JobKey(1, 0);
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch coveredDialed = new CountDownLatch(1);
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write,
                job -> coveredFirst(job, covered, coveredDialed, step));
        ThreadCensus census = new ThreadCensus();
        CountDownLatch coveredStopped = new CountDownLatch(1);
        RequestListener listener = new RequestListener() {
            @Override
            public void onAbandoned(JobKey key) {
                if (key.equals(covered)) {
                    coveredStopped.countDown();
                }
            }
        };
        CompletableFuture<Boolean> stoppedBeforeTheEnd = new CompletableFuture<>();
        RecordingClient recorder = new RecordingClient();

        RequestResult result = new Background(census.engine(config), Request.of(plan, tier2, store,
                (segment, output) -> {
                    if (segment == 1) {
                        stoppedBeforeTheEnd.complete(coveredStopped.await(5, TimeUnit.SECONDS));
                    }
                    recorder.accept(segment, output);
                }).withListener(listener)).get(10);

        assertTrue(stoppedBeforeTheEnd.getNow(false), covered + " was still running when the last segment came");
        assertEquals(2, result.segmentsDelivered());
        assertEquals(1, tier2.log().dialsOf(covered));
        assertEquals(0, census.alive());
        assertEquals(0, tier2.blocked());
        assertEquals(0, tier2.openCalls());
    }

    /**
     * Defect 3: the give-up counts belong to the unit across its re-runs. TIMEOUT, OK with the output missing (a
     * re-run), TIMEOUT: with maxExecutionTimeouts = 2 that is the unit's second timeout, and the request fails.
     */
    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void giveUpCountersResetOnARerun(boolean ordered) {
        RequestPlan plan = new RequestPlan(0, 14, 3, 4);
        JobKey unit = new JobKey(12, 2);
        Script timeout = Script.throwOnAwait(Tier2Exception.executionTimeout("deadline exceeded"));
        Script[] script = {timeout, Script.loseOutput(), timeout};
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> job.key().equals(unit)
                && job.attempt() <= script.length ? script[job.attempt() - 1] : Script.succeed());
        EngineConfig twoTimeouts = config(ordered).toBuilder().maxExecutionTimeouts(2).build();

        Throwable thrown = new Background(Orderly.engine(twoTimeouts),
                Request.of(plan, tier2, store, new RecordingClient())).failure(10);

        RequestFailedException failure = assertInstanceOf(RequestFailedException.class, thrown);
        assertEquals(java.util.Optional.of(unit), failure.key());
        assertEquals("segment 12 stage 2 timed out 2 times, giving up: deadline exceeded", failure.getMessage());
        assertEquals(3, tier2.log().dialsOf(unit));
    }

    /**
     * Also found: a look-ahead too large for the scheduler's memory (1000 segments per worker × 2000 workers) is
     * refused up front with an error that says so, instead of an OutOfMemoryError or a run.
     */
    @org.junit.jupiter.api.Test
    void aLookaheadBeyondTheBoundIsRejectedBeforeAnythingRuns() {
        RequestPlan plan = new RequestPlan(0, 1_000_000_000L, 1, 2_000);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write,
                job -> Script.throwOnDial(Tier2Exception.fatal("must not be dialed", null)));
        EngineConfig huge = Fixtures.fast().toBuilder().lookaheadFactor(1000).build();

        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Orderly.engine(huge).run(Request.of(plan, tier2, store, new RecordingClient())));

        assertEquals("the look-ahead ceil(lookaheadFactor 1000.0 * workers 2000) = 2000000 segments exceeds the"
                + " bound of 1048576 segments the scheduler keeps state for; lower lookaheadFactor or workers",
                e.getMessage());
        assertEquals(0, tier2.log().dials().size());
    }

    /** Also found: an OutputStore returning null gave an internal NPE message. */
    @org.junit.jupiter.api.Test
    void anOutputStoreReturningNullGivesAnInternalNpeMessage() {
        RequestPlan plan = new RequestPlan(0, 5, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        dev.orderly.api.OutputStore broken = segment -> segment == 3 ? null : store.read(segment);

        Throwable thrown = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, broken, new RecordingClient())).failure(10);

        RequestFailedException failure = assertInstanceOf(RequestFailedException.class, thrown);
        assertEquals("segment 3 stage 0 output could not be read: the OutputStore broke its contract,"
                + " read(3) returned null instead of an Optional", failure.getMessage());
        assertEquals(java.util.Optional.of(new JobKey(3, 0)), failure.key());
    }

    /** Also found: an Error thrown by a job came back with key() empty. */
    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void anErrorThrownByAJobComesBackWithKeyEmpty(boolean ordered) {
        RequestPlan plan = new RequestPlan(0, 6, 2, 2);
        JobKey unit = new JobKey(2, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> {
            if (job.key().equals(unit)) {
                // Not a VirtualMachineError: those propagate as themselves (AnOutputStoreErrorNamesItsUnitTest).
                throw new NoClassDefFoundError("deep/Module");
            }
            return Script.succeed();
        });

        Throwable thrown = new Background(Orderly.engine(config(ordered)),
                Request.of(plan, tier2, store, new RecordingClient())).failure(10);

        RequestFailedException failure = assertInstanceOf(RequestFailedException.class, thrown);
        assertEquals(java.util.Optional.of(unit), failure.key());
        assertInstanceOf(NoClassDefFoundError.class, failure.getCause());
        assertTrue(failure.getMessage().startsWith("segment 2 stage 1 "), failure.getMessage());
    }
}
