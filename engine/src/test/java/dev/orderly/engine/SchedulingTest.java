package dev.orderly.engine;

import static dev.orderly.engine.Fixtures.range;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scheduling: lowest segment first, then the highest runnable stage; {@code (s, k)} waits until every stage under
 * {@code k} is done for every segment under {@code s}; a done stage covers the stages under it; nothing is scheduled
 * past the look-ahead. And the output walker's re-runs of a missing output.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SchedulingTest {

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aSlowClientHoldsSchedulingBackToTheLookahead(boolean ordered) throws Throwable {
        // 3 workers x factor 2.0: no segment at or past reading + 6 is scheduled.
        RequestPlan plan = new RequestPlan(0, 40, 2, 3);
        EngineConfig config = (ordered ? Fixtures.fast() : Fixtures.fastUnordered()).toBuilder()
                .lookaheadFactor(2.0).build();
        CountDownLatch release = new CountDownLatch(1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        RecordingClient recorder = new RecordingClient();
        Background run = new Background(Orderly.engine(config), Request.of(plan, tier2, store, (segment, output) -> {
            if (segment == 10) {
                release.await();
            }
            recorder.accept(segment, output);
        }));

        await().atMost(Duration.ofSeconds(10)).until(() -> highestSegmentDialed(tier2) == 15);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1))
                .until(() -> highestSegmentDialed(tier2) == 15);
        release.countDown();
        run.get(10);

        assertEquals(range(0, 40), recorder.segments());
        assertEquals(39, highestSegmentDialed(tier2));
    }

    private static long highestSegmentDialed(ScriptedTier2 tier2) {
        return tier2.log().dials().stream().mapToLong(j -> j.key().segment()).max().orElse(-1);
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void atMostWorkersJobsAreAlive(boolean ordered) {
        RequestPlan plan = new RequestPlan(0, 50, 1, 3);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.block());
        Background run = new Background(Orderly.engine(ordered ? Fixtures.fast() : Fixtures.fastUnordered()),
                Request.of(plan, tier2, store, new RecordingClient()));

        await().atMost(Duration.ofSeconds(10)).until(() -> tier2.blocked() == 3);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1))
                .until(() -> tier2.log().dials().size() == 3);
        run.interrupt();

        assertInstanceOf(InterruptedException.class, run.failure(10));
        assertEquals(List.of(0L, 1L, 2L), tier2.log().dials().stream().map(j -> j.key().segment()).sorted().toList());
    }

    @Test
    void oneWorkerRunsTheHighestStageOfEachSegmentInOrderAndItsJobCoversTheStagesUnder() throws Exception {
        RequestPlan plan = new RequestPlan(0, 4, 3, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        RecordingClient client = new RecordingClient();

        Orderly.engine(Fixtures.fast()).run(Request.of(plan, tier2, store, client));

        assertEquals(List.of(new JobKey(0, 2), new JobKey(1, 2), new JobKey(2, 2), new JobKey(3, 2)),
                tier2.log().dials().stream().map(Job::key).toList());
        assertEquals(range(0, 4), client.segments());
    }

    @Test
    void laterSegmentsStartWithStageZeroWhileEarlierStagesAreMissing() throws Exception {
        // With two workers, segment 0's last stage runs alone-able; segment 1 can only run stage 0 until segment 0
        // is done, so the first two dials are (0,2) and (1,0).
        RequestPlan plan = new RequestPlan(0, 2, 3, 2);
        CountDownLatch bothDialed = new CountDownLatch(2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> {
            bothDialed.countDown();
            bothDialed.await();
            return Script.succeed();
        });
        RecordingClient client = new RecordingClient();

        Orderly.engine(Fixtures.fast()).run(Request.of(plan, tier2, store, client));

        assertEquals(List.of(new JobKey(0, 2), new JobKey(1, 0)),
                tier2.log().dials().subList(0, 2).stream().map(Job::key).sorted().toList());
        assertEquals(List.of(), tier2.dependencyViolations());
        assertEquals(range(0, 2), client.segments());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aMissingOutputIsRerunOnceAndDelivered(boolean ordered) throws Exception {
        RequestPlan plan = new RequestPlan(0, 10, 2, 3);
        JobKey unit = new JobKey(4, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> job.key().equals(unit) && job.attempt() == 1
                ? Script.loseOutput() : Script.succeed());
        List<JobKey> reruns = new CopyOnWriteArrayList<>();
        RecordingClient client = new RecordingClient();

        RequestResult result = Orderly.engine(ordered ? Fixtures.fast() : Fixtures.fastUnordered())
                .run(Request.of(plan, tier2, store, client).withListener(new RequestListener() {
                    @Override
                    public void onRerun(JobKey key) {
                        reruns.add(key);
                    }
                }));

        assertEquals(range(0, 10), client.segments());
        assertEquals(List.of(unit), reruns);
        assertEquals(1, result.reruns());
        assertEquals(List.of(1, 2), tier2.log().dials().stream().filter(j -> j.key().equals(unit)).map(Job::attempt)
                .toList(), "the re-run keeps counting the unit's dials");
        assertEquals(List.of(), tier2.dependencyViolations());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void anOutputThatNeverAppearsFailsTheRequestNamingTheSegment(boolean ordered) {
        RequestPlan plan = new RequestPlan(0, 10, 2, 3);
        JobKey unit = new JobKey(4, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write,
                job -> job.key().equals(unit) ? Script.loseOutput() : Script.succeed());
        RecordingClient client = new RecordingClient();

        RequestFailedException failure = assertThrows(RequestFailedException.class,
                () -> Orderly.engine(ordered ? Fixtures.fast() : Fixtures.fastUnordered())
                        .run(Request.of(plan, tier2, store, client)));

        assertEquals(Optional.of(unit), failure.key());
        assertEquals("segment 4 stage 1 output missing after 3 re-runs (4 successful jobs), giving up",
                failure.getMessage());
        assertEquals(4, tier2.log().dialsOf(unit));
        assertEquals(range(0, 4), client.segments());
        assertEquals(0, tier2.openCalls());
    }

    @Test
    void aRerunDialsAheadOfTheQueuedLaterSegments() throws Exception {
        // Segments 1..5 are refused until the re-run of segment 0 has dialed, so they sit in the launch queue (only
        // the window of 2 of them dials at all); the re-run, being the lowest segment, must not wait behind them.
        RequestPlan plan = new RequestPlan(0, 6, 1, 6);
        JobKey unit = new JobKey(0, 0);
        InMemoryOutputStore store = new InMemoryOutputStore();
        java.util.concurrent.atomic.AtomicBoolean rerunDialed = new java.util.concurrent.atomic.AtomicBoolean();
        CountDownLatch othersRefused = new CountDownLatch(2);
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> {
            if (job.key().equals(unit)) {
                if (job.attempt() == 1) {
                    othersRefused.await();
                    return Script.loseOutput();
                }
                rerunDialed.set(true);
                return Script.succeed();
            }
            if (rerunDialed.get()) {
                return Script.succeed();
            }
            if (job.attempt() == 1) {
                othersRefused.countDown();
            }
            return Script.refuse(1);
        });
        List<JobKey> queued = new CopyOnWriteArrayList<>();
        RecordingClient client = new RecordingClient();

        RequestResult result = Orderly.engine(Fixtures.fast()).run(Request.of(plan, tier2, store, client)
                .withListener(new RequestListener() {
                    @Override
                    public void onQueued(JobKey key) {
                        queued.add(key);
                    }
                }));

        assertEquals(range(0, 6), client.segments());
        assertEquals(1, result.reruns());
        assertEquals(2, tier2.log().dialsOf(unit));
        assertTrue(queued.stream().anyMatch(k -> k.segment() > 0), "later segments were queued: " + queued);
        assertTrue(!queued.contains(unit), "the re-run waited in the queue: " + queued);
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aShadowedJobThatFailsAfterItsSegmentWasDeliveredDoesNotFailTheRequest(boolean ordered) throws Exception {
        // (1,0) is launched first and hangs; (1,1) then runs, covers stage 0 of segment 1, and segment 1 is
        // delivered; only then does (1,0) fail fatally. Its unit is no longer needed, so the request succeeds.
        LateFailingShadowedJob scenario = new LateFailingShadowedJob(new RequestPlan(0, 2, 2, 2),
                dev.orderly.api.Tier2Exception.fatal("late failure", null));

        RequestResult result = Orderly.engine(ordered ? Fixtures.fast() : Fixtures.fastUnordered())
                .run(scenario.request());

        assertEquals(range(0, 2), scenario.recorder.segments());
        assertEquals(2, result.segmentsDelivered());
        assertEquals(1, scenario.tier2.log().dialsOf(LateFailingShadowedJob.SHADOWED));
        assertEquals(0, scenario.tier2.openCalls());
    }
}
