package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import org.junit.jupiter.api.Test;

/**
 * Regression: a plan with a huge number of stages ({@code Integer.MAX_VALUE}, which {@code RequestPlan} takes) made
 * {@code Engine.run} throw {@code OutOfMemoryError: Requested array size exceeds VM limit} from the scheduler's
 * per-stage state, or try to allocate gigabytes. It is now refused up front, naming the stages and the bound, as a
 * look-ahead beyond its bound is.
 */
class AStageCountBeyondTheBoundIsRefusedByNameTest {

    @Test
    void aPlanWithMoreStagesThanTheSchedulerKeepsIsRefusedBeforeAnythingRuns() {
        RequestPlan plan = new RequestPlan(0, 1, Integer.MAX_VALUE, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write,
                job -> Script.throwOnDial(Tier2Exception.fatal("must not be dialed", null)));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Orderly.engine(Fixtures.fast()).run(Request.of(plan, tier2, store, new RecordingClient())));

        assertEquals("the plan's 2147483647 stages exceed the bound of 65536 stages the scheduler keeps state for",
                e.getMessage());
        assertEquals(0, tier2.log().dials().size());
    }

    @Test
    void aPlanAtTheBoundRuns() throws Exception {
        RequestPlan plan = new RequestPlan(0, 1, 65_536, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        RecordingClient client = new RecordingClient();

        Orderly.engine(Fixtures.fast()).run(Request.of(plan, tier2, store, client));

        assertEquals(java.util.List.of(0L), client.segments());
    }
}
