package dev.orderly.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: the testing kit's calls took a second {@code await()} (the engine awaits a call once; a test driving a
 * call by hand may not) for a call closed under it. {@code ScriptedTier2}'s threw {@link InterruptedException}, "call
 * closed before the job ended", for a call that had ended well and was never closed, and logged an
 * {@code INTERRUPTED} the job never had; {@code InMemoryFleet}'s ran the job's time a second time first, then said
 * the same and logged the same. A second {@code await()} is now refused at once with an {@link IllegalStateException} naming the job,
 * and changes nothing: no event, no output, no count.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ASecondAwaitOfACallIsRefusedInWordsTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 4, 2, 2);
    private static final JobKey LAST = new JobKey(3, 1);
    private static final String SECOND = "await() was already called for job r-1 segment 3 stage 1 attempt 1; a call"
            + " is awaited once";

    @Test
    void aScriptedCallAwaitedTwiceSaysSoAndLogsNothingMore() throws Exception {
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN);
        Tier2Call call = tier2.dial(new Job("r-1", LAST, 1));
        call.await();
        int events = tier2.log().typesOf(LAST).size();

        assertEquals(SECOND, assertThrows(IllegalStateException.class, call::await).getMessage());

        assertEquals(events, tier2.log().typesOf(LAST).size(), "the second await logged " + tier2.log().typesOf(LAST));
        assertEquals(1, tier2.succeededCalls());
        assertArrayEquals(ScriptedTier2.outputOf(3), tier2.outputs().read(3).orElseThrow());
        call.close();
        assertEquals(0, tier2.openCalls());
    }

    @Test
    void anInMemoryCallAwaitedTwiceSaysSoAndLogsNothingMore() throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().jobTime(Duration.ofMillis(50)).build();
        InMemoryFleet.Tenant tenant = fleet.tenant(PLAN);
        Tier2Call call = tenant.client().dial(new Job("r-1", LAST, 1));
        call.await();
        int events = fleet.log().typesOf(LAST).size();

        assertEquals(SECOND, assertThrows(IllegalStateException.class, call::await).getMessage());

        assertEquals(events, fleet.log().typesOf(LAST).size(), "the second await logged " + fleet.log().typesOf(LAST));
        call.close();
        assertEquals(0, fleet.busySlots());
    }
}
