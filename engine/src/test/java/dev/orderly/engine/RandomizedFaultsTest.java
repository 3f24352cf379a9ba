package dev.orderly.engine;

import static dev.orderly.engine.Fixtures.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.SegmentConsumer;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Over many fixed seeds (reproducible: the faults depend only on the seed, the unit and the attempt), every run
 * either delivers every segment once and in order, or fails with a {@link RequestFailedException} naming a unit —
 * never a hang, never a gap or a duplicate, never a call left open or a dependency broken. And in every run: each
 * {@code onAdmitted} is followed by exactly one end of that job ({@link JobEndLedger}); in a run that delivers
 * everything, no dial starts after the client has the last segment but for the dials already past their check (at
 * most one per worker); the listener's figures are the caller's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RandomizedFaultsTest {

    private static final int SEEDS = 150;

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void everyRunDeliversEverythingInOrderOrFailsNamingAUnit(boolean ordered) throws InterruptedException {
        ThreadCensus census = new ThreadCensus();
        int delivered = 0;
        int failed = 0;
        int lateDials = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            long start = random.nextLong(0, 1_000);
            RequestPlan plan = new RequestPlan(start, start + random.nextInt(1, 40), random.nextInt(1, 4),
                    random.nextInt(1, 9));
            EngineConfig config = EngineConfig.builder()
                    .refusedDelay(Duration.ofMillis(1))
                    .failureDelay(Duration.ofMillis(2))
                    .lookaheadFactor(random.nextInt(1, 4) / 2.0)
                    .ordered(ordered)
                    .build();
            InMemoryOutputStore store = new InMemoryOutputStore();
            // A request that delivers everything has stopped once its client has the last segment: every unit is
            // DONE before that output is read. (A failure's moment is not visible from outside: the failing job's
            // thread marks the request failed a little after the stub handed it the error, and other jobs may dial
            // in between, rightly. So only the runs that deliver everything are checked.)
            AtomicInteger dialsAtStop = new AtomicInteger(-1);
            ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, new RandomFaults(seed, 1.0));
            RecordingClient recorder = new RecordingClient();
            SegmentConsumer client = (segment, output) -> {
                recorder.accept(segment, output);
                if (segment == plan.endSegment() - 1) {
                    dialsAtStop.compareAndSet(-1, tier2.log().dials().size());
                }
            };
            JobEndLedger ledger = new JobEndLedger();
            String where = "seed " + seed + ", " + plan;
            try {
                ThreadCensus mine = new ThreadCensus();
                RequestResult result = new dev.orderly.engine.internal.OrderlyEngine(config, thread -> {
                    census.accept(thread);
                    mine.accept(thread);
                }).run(Request.of(plan, tier2, store, client).withListener(ledger));
                assertTrue(Quiet.within100Ms(tier2::openCalls, mine::alive), where + ": " + tier2.openCalls()
                        + " call(s) open, " + mine.alive() + " request thread(s) alive 100 ms after run returned");
                assertEquals(range(plan.startSegment(), plan.endSegment()), recorder.segments(), where);
                assertEquals(plan.segmentCount(), result.segmentsDelivered(), where);
                assertEquals(tier2.log().dials().size(), result.dials(), where);
                assertEquals(List.of(result), ledger.ends(), where + ": the listener's figures");
                delivered++;
            } catch (RequestFailedException e) {
                assertTrue(e.key().isPresent(), where + ": no unit named in " + e.getMessage());
                assertTrue(e.getMessage().startsWith(e.key().get().toString()), where + ": " + e.getMessage());
                assertEquals(range(plan.startSegment(), plan.startSegment() + recorder.segments().size()),
                        recorder.segments(), where + ": delivered before the failure");
                assertEquals(List.of(e.partialResult().orElseThrow()), ledger.ends(), where + ": the listener's figures");
                failed++;
            }
            assertEquals(List.of(), ledger.violations(), where + ": admitted jobs and their ends");
            if (dialsAtStop.get() >= 0 && recorder.segments().size() == plan.segmentCount()) {
                int late = tier2.log().dials().size() - dialsAtStop.get();
                // A job past its check when the request stopped may still dial once; no job dials twice, none anew.
                assertTrue(late <= plan.workers(), where + ": " + late + " dial(s) after the request stopped");
                lateDials += late;
            }
            assertEquals(0, recorder.overlaps(), where);
            assertEquals(java.util.List.of(), recorder.wrongOutputs(), where);
            assertEquals(java.util.List.of(), tier2.dependencyViolations(), where);
            assertEquals(0, tier2.openCalls(), where + ": open calls");
            assertEquals(0, tier2.doubleCloses(), where + ": calls closed twice");
            if (census.alive() != 0) {
                fail(where + ": " + census.alive() + " request threads still alive after run ended");
            }
        }
        // The fault mix must exercise both outcomes, or this test checks less than it says.
        assertTrue(delivered > SEEDS / 4, "delivered " + delivered);
        assertTrue(failed > 5, "failed " + failed);
        System.out.println("randomized faults (ordered=" + ordered + "): " + delivered + " delivered, " + failed
                + " failed, " + lateDials + " dial(s) in all started after the client had the last segment");
    }
}
