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
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Over many fixed seeds (reproducible: the faults depend only on the seed, the unit and the attempt), every run
 * either delivers every segment once and in order, or fails with a {@link RequestFailedException} naming a unit —
 * never a hang, never a gap or a duplicate, never a call left open or a dependency broken.
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
            StubTier2 tier2 = new StubTier2(plan, store, new RandomFaults(seed, 1.0));
            RecordingClient client = new RecordingClient();
            String where = "seed " + seed + ", " + plan;
            try {
                ThreadCensus mine = new ThreadCensus();
                RequestResult result = new dev.orderly.engine.internal.OrderlyEngine(config, thread -> {
                    census.accept(thread);
                    mine.accept(thread);
                }).run(Request.of(plan, tier2, store, client));
                assertTrue(Quiet.within100Ms(tier2::openCalls, mine::alive), where + ": " + tier2.openCalls()
                        + " call(s) open, " + mine.alive() + " request thread(s) alive 100 ms after run returned");
                assertEquals(range(plan.startSegment(), plan.endSegment()), client.segments(), where);
                assertEquals(plan.segmentCount(), result.segmentsDelivered(), where);
                assertEquals(tier2.dials().size(), result.dials(), where);
                delivered++;
            } catch (RequestFailedException e) {
                assertTrue(e.key().isPresent(), where + ": no unit named in " + e.getMessage());
                assertTrue(e.getMessage().startsWith(e.key().get().toString()), where + ": " + e.getMessage());
                assertEquals(range(plan.startSegment(), plan.startSegment() + client.segments().size()),
                        client.segments(), where + ": delivered before the failure");
                failed++;
            }
            assertEquals(0, client.overlaps(), where);
            assertEquals(java.util.List.of(), client.wrongOutputs(), where);
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
    }
}
