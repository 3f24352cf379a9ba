package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Plan 2 × 2: unit (0, 1), the last stage of the client's segment, got in and failed, and sits out a failure delay
 * far past the deadline; stage 0 of segment 0 never runs (stage 1's success covers it). The deadline's message said
 * "segment 0 waiting for stage 0", the lowest stage not done, though no job of stage 0 was ever launched and the one
 * the client waits for is stage 1's. It names the highest stage of the segment in flight.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheDeadlineNamesTheStageInFlightTest {

    @Test
    void aLastStageSittingOutItsFailureDelayIsTheStageNamed() {
        RequestPlan plan = new RequestPlan(0, 2, 2, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed()).script(new JobKey(0, 1), Script.fail());

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(
                Fixtures.fast().toBuilder().failureDelay(Duration.ofSeconds(20)).build())
                .run(Request.of(plan, tier2, store, (segment, output) -> { })
                        .withDeadline(Duration.ofMillis(500))));

        assertTrue(e.getMessage().contains("0 of 2 segments delivered, segment 0 waiting for stage 1"), e.getMessage());
        assertFalse(e.getMessage().contains("stage 0"), e.getMessage());
    }
}
