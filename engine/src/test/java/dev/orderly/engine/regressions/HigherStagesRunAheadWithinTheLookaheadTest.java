package dev.orderly.engine.regressions;

import static dev.orderly.engine.Fixtures.range;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Work runs ahead of the client up to the look-ahead, and that includes the higher stages: once every stage under
 * {@code k} is done for the segments below {@code s}, unit {@code (s, k)} runs, whether or not the client has read
 * anything yet. A scheduler that ran the higher stages only in the segment being read would leave the fleet idle
 * behind a slow client and make it wait for every segment's stages one after the other.
 *
 * <p>3 workers with a look-ahead factor of 2 let segments 0 to 5 run while the client still holds segment 0.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HigherStagesRunAheadWithinTheLookaheadTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 12, 3, 3);
    private static final long LOOKAHEAD = 6;

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void theLastStageOfEverySegmentInTheLookaheadRunsWhileTheClientHoldsTheFirst(boolean ordered) throws Throwable {
        EngineConfig config = (ordered ? Fixtures.fast() : Fixtures.fastUnordered()).toBuilder()
                .lookaheadFactor(2.0).build();
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        RecordingClient recorder = new RecordingClient();
        CountDownLatch release = new CountDownLatch(1);
        Background run = new Background(Orderly.engine(config), Request.of(PLAN, tier2, store, (segment, output) -> {
            if (segment == 0 && !release.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released segment 0");
            }
            recorder.accept(segment, output);
        }));
        try {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertEquals(range(0, LOOKAHEAD),
                    lastStageSegmentsDialed(tier2), "segments whose last stage was dialed while the client holds 0"));
            assertTrue(recorder.segments().isEmpty(), "delivered before the release: " + recorder.segments());
            assertEquals(List.of(), tier2.log().dials().stream().filter(j -> j.key().segment() >= LOOKAHEAD).toList(),
                    "dials past the look-ahead");
        } finally {
            release.countDown();
        }

        run.get(10);
        assertEquals(range(0, 12), recorder.segments());
        assertEquals(List.of(), tier2.dependencyViolations());
    }

    private static List<Long> lastStageSegmentsDialed(ScriptedTier2 tier2) {
        return tier2.log().dials().stream()
                .filter(j -> j.key().stage() == PLAN.lastStage())
                .map(j -> j.key().segment())
                .distinct()
                .sorted()
                .toList();
    }
}
