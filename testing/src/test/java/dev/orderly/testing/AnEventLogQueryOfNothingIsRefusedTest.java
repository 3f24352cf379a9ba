package dev.orderly.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: the log's queries took a null key or type and answered "none" ({@code dialsOf(null)} 0,
 * {@code typesOf(null)} empty, {@code count(null)} 0), so a test asserting that a unit was never dialed, or never
 * refused, passed whatever the tier2 did when its key or type variable was not set. They now refuse it naming the
 * argument.
 */
@Timeout(10)
class AnEventLogQueryOfNothingIsRefusedTest {

    @Test
    void aNullKeyOrTypeIsRefusedNamingIt() throws Exception {
        ScriptedTier2 tier2 = new ScriptedTier2(new RequestPlan(0, 2, 1, 1))
                .script(new JobKey(0, 0), Script.refuse(1));
        try {
            tier2.dial(new Job("r-1", new JobKey(0, 0), 1));
        } catch (dev.orderly.api.Tier2Exception expected) {
            // refused, as scripted
        }
        EventLog log = tier2.log();
        assertEquals("key", assertThrows(NullPointerException.class, () -> log.dialsOf(null)).getMessage());
        assertEquals("key", assertThrows(NullPointerException.class, () -> log.typesOf(null)).getMessage());
        assertEquals("key", assertThrows(NullPointerException.class, () -> log.eventsOf(null)).getMessage());
        assertEquals("type", assertThrows(NullPointerException.class, () -> log.count(null)).getMessage());
        assertEquals("type", assertThrows(NullPointerException.class,
                () -> log.count(null, new JobKey(0, 0))).getMessage());
        assertEquals("key", assertThrows(NullPointerException.class,
                () -> log.count(Tier2Event.Type.REFUSED, null)).getMessage());
    }
}
