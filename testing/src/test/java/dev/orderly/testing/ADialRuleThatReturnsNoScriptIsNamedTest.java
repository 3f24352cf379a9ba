package dev.orderly.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a {@code DialRule} that returned {@code null} made the dial throw the JVM's bare
 * {@code NullPointerException} ("Cannot invoke ... because the return value of ... next(Job) is null"), which the
 * engine takes for a FATAL tier2 and a test's author for a bug of the kit's. It now says what the rule did and what to
 * return instead.
 */
@Timeout(10)
class ADialRuleThatReturnsNoScriptIsNamedTest {

    @Test
    void theDialSaysTheRuleReturnedNoScriptForItsUnit() {
        ScriptedTier2 tier2 = new ScriptedTier2(new RequestPlan(0, 4, 1, 2), null, job -> null);
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> tier2.dial(new Job("r-1", new JobKey(2, 0), 1)));
        assertEquals("the DialRule returned no Script for segment 2 stage 0 (attempt 1); return one, such as"
                + " Script.succeed()", e.getMessage());
    }
}
