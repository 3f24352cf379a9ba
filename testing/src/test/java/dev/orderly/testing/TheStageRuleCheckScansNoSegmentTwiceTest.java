package dev.orderly.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code ScriptedTier2} checked the stage rule at every dial by scanning every segment from the plan's
 * start up to the dialed one, so a request's dials cost O(segments^2) together (a test of 100,000 segments spent
 * billions of map look-ups in the fake, minutes where the engine needs a second), and a stage-0 dial, which waits for
 * nothing, scanned them all for nothing: one dial of segment 2^40 of a long plan never returned. The check now goes
 * on from where the last one stopped, per stage, and finds the same violations.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheStageRuleCheckScansNoSegmentTwiceTest {

    @Test
    void aStageZeroDialOfAFarSegmentReturnsAtOnce() throws Exception {
        long far = 1L << 40;
        ScriptedTier2 tier2 = new ScriptedTier2(new RequestPlan(0, far + 1, 2, 4));
        AtomicReference<Throwable> failed = new AtomicReference<>();
        // On a daemon thread: the scan it replaces could not be interrupted, and must not hold the test past its bound.
        Thread dialer = Thread.ofPlatform().daemon().start(() -> {
            try (Tier2Call call = tier2.dial(new Job("r-1", new JobKey(far, 0), 1))) {
                call.await();
            } catch (Throwable e) {
                failed.set(e);
            }
        });
        assertTrue(dialer.join(Duration.ofSeconds(10)), "one stage-0 dial of segment 2^40 did not return");
        assertNull(failed.get(), () -> "the dial failed: " + failed.get());
        assertEquals(List.of(), tier2.dependencyViolations(), "stage 0 waits for nothing");
    }

    @Test
    void aLongRequestsDialsInOrderCostNoScanEach() throws Exception {
        int segments = 200_000;
        ScriptedTier2 tier2 = new ScriptedTier2(new RequestPlan(0, segments, 2, 4));
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread dialer = Thread.ofPlatform().daemon().start(() -> {
            try {
                int attempt = 0;
                for (long s = 0; s < segments; s++) {
                    try (Tier2Call call = tier2.dial(new Job("r-1", new JobKey(s, 1), ++attempt))) {
                        call.await();
                    }
                }
            } catch (Throwable e) {
                failed.set(e);
            }
        });
        // Scanning every lower segment at each dial is 2 * 10^10 look-ups here; going on from the last stop, 2 * 10^5.
        assertTrue(dialer.join(Duration.ofSeconds(20)), "200,000 in-order dials did not end in 20 s");
        assertNull(failed.get(), () -> "a dial failed: " + failed.get());
        assertEquals(List.of(), tier2.dependencyViolations());
    }

    @Test
    void theViolationsAreTheSameAsBefore() throws Exception {
        ScriptedTier2 tier2 = new ScriptedTier2(new RequestPlan(0, 10, 2, 4));
        int attempt = 0;
        for (JobKey key : List.of(new JobKey(1, 1), new JobKey(0, 0), new JobKey(3, 1), new JobKey(2, 1),
                new JobKey(4, 1), new JobKey(6, 1))) {
            try (Tier2Call call = tier2.dial(new Job("r-1", key, ++attempt))) {
                call.await();
            }
        }
        assertEquals(List.of(
                "segment 1 stage 1 dialed while segment 0 had stages done only up to -1",
                "segment 3 stage 1 dialed while segment 2 had stages done only up to -1",
                "segment 6 stage 1 dialed while segment 5 had stages done only up to -1"),
                tier2.dependencyViolations());
    }
}
