package dev.orderly.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import org.junit.jupiter.api.Test;

/**
 * Regression: {@code ScriptedTier2.script(key, script)} took any key, so a script for a unit the request never
 * dials (segment 10 of a plan of segments 0 to 9, or stage 2 of a plan of 2 stages: a slip of one) was kept and never
 * used, and a test that meant to inject a fault passed without one. A key outside the plan is now refused, naming it
 * and the plan's units.
 */
class AScriptForAUnitOutsideThePlanIsRefusedTest {

    private static final RequestPlan PLAN = new RequestPlan(2, 10, 2, 4);

    private static final String UNITS = "key must be a unit of the plan, segments 2 to 9 and stages 0 to 1, was ";

    /** What scripting {@code key} on a fresh tier2 of the plan is refused with. */
    private static String refusalOf(JobKey key) {
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN);
        return assertThrows(IllegalArgumentException.class, () -> tier2.script(key, Script.fail())).getMessage();
    }

    @Test
    void aSegmentPastTheEndIsRefused() {
        assertEquals(UNITS + "segment 10 stage 1", refusalOf(new JobKey(10, 1)));
    }

    @Test
    void aSegmentBeforeTheStartIsRefused() {
        assertEquals(UNITS + "segment 1 stage 0", refusalOf(new JobKey(1, 0)));
    }

    @Test
    void aStagePastTheLastIsRefused() {
        assertEquals(UNITS + "segment 3 stage 2", refusalOf(new JobKey(3, 2)));
    }

    @Test
    void theCornersOfThePlanAreTaken() {
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN);
        tier2.script(new JobKey(2, 0), Script.fail()).script(new JobKey(9, 1), Script.fail());
    }
}
