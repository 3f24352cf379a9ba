package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
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
 * Plan 4 × 2, the client returns from every segment at once, the listener spends 2 s in
 * {@code onSegmentDelivered(0)}, deadline 300 ms: the failure said "segment 1 ready, the client still on segment 0",
 * which embedding.md gives for "when your SegmentConsumer is the one still busy"; it was idle, and the reader was sent
 * to the wrong code. The message now names the listener's call that held the walker.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AListenerBusyAtTheDeadlineIsNotBlamedOnTheClientTest {

    @Test
    void aListenerBusyPastTheDeadlineIsNamed() {
        RequestPlan plan = new RequestPlan(0, 4, 2, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        RequestListener slow = new RequestListener() {
            @Override
            public void onSegmentDelivered(long segment) {
                if (segment == 0) {
                    try {
                        TimeUnit.SECONDS.sleep(2); // well past the deadline; the client returned long before
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(plan, tier2, store, (segment, output) -> { }).withListener(slow)
                        .withDeadline(Duration.ofMillis(300))));

        assertTrue(e.getMessage().contains("passed its deadline of 300ms: 1 of 4 segments delivered"), e.getMessage());
        assertFalse(e.getMessage().contains("the client still on segment 0"), e.getMessage());
        assertTrue(e.getMessage().contains("onSegmentDelivered(0)"), e.getMessage());
    }
}
