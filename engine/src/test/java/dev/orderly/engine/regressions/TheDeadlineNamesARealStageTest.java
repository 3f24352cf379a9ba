package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * Issue 19, defect 5: plan 4 × 2, the client spends 700 ms in {@code accept(0)}, deadline 300 ms: the message said
 * "segment 1 waiting for stage 2", a stage the plan does not have. A segment that is ready while the client is busy
 * says so.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheDeadlineNamesARealStageTest {

    @Test
    void aReadySegmentBehindABusyClientIsCalledReady() {
        RequestPlan plan = new RequestPlan(0, 4, 2, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(plan, tier2, store, (segment, output) -> {
                    if (segment == 0) {
                        // the client is busy well past the deadline; by then segment 1 is long done
                        TimeUnit.MILLISECONDS.sleep(700);
                    }
                }).withDeadline(Duration.ofMillis(300))));

        assertTrue(e.getMessage().contains("1 of 4 segments delivered, segment 1 ready, the client still on segment 0"),
                e.getMessage());
        assertFalse(e.getMessage().contains("stage 2"), e.getMessage());
    }
}
