package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
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
 * Plan 4 × 2, the client returns from every segment at once, the listener stays in {@code onSegmentDelivered(0)} until
 * well past the deadline: the failure said "segment 1 ready, the client still on segment 0", which embedding.md gives
 * for "when your SegmentConsumer is the one still busy"; it was idle, and the reader was sent to the wrong code. The
 * message now names the listener's call that held the walker.
 *
 * <p>The deadline is seconds, not 300 ms: segment 0 must be delivered before it, and at a load of a few per core the
 * first delivery alone took over 300 ms ("0 of 4 segments delivered, segment 0 waiting for stage 1"). The listener
 * holds until a second past the deadline, however long the delivery took.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AListenerBusyAtTheDeadlineIsNotBlamedOnTheClientTest {

    private static final Duration DEADLINE = Duration.ofSeconds(5);

    @Test
    void aListenerBusyPastTheDeadlineIsNamed() {
        RequestPlan plan = new RequestPlan(0, 4, 2, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        long start = System.nanoTime();
        long pastTheDeadline = DEADLINE.plusSeconds(1).toNanos();
        RequestListener slow = new RequestListener() {
            @Override
            public void onSegmentDelivered(long segment) {
                if (segment == 0) {
                    // well past the deadline (which starts after `start`); the client returned long before
                    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                            .until(() -> System.nanoTime() - start > pastTheDeadline);
                }
            }
        };

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(plan, tier2, store, (segment, output) -> { }).withListener(slow)
                        .withDeadline(DEADLINE)));

        assertTrue(e.getMessage().contains("passed its deadline of 5s: 1 of 4 segments delivered"), e.getMessage());
        assertFalse(e.getMessage().contains("the client still on segment 0"), e.getMessage());
        assertTrue(e.getMessage().contains("onSegmentDelivered(0)"), e.getMessage());
    }
}
