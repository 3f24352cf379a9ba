package dev.orderly.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code Script.refuse(Integer.MAX_VALUE)} (a unit that never gets in, to test a request's deadline) made
 * one step object per refusal, and a list of them: the test died with an {@code OutOfMemoryError} before anything
 * ran. A script now holds a step and how many times it repeats.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AScriptOfManyRefusalsTakesNoMemoryPerRefusalTest {

    private static final JobKey UNIT = new JobKey(0, 0);

    @Test
    void aUnitRefusedIntegerMaxValueTimesIsRefusedAtEveryDial() throws Exception {
        ScriptedTier2 tier2 = new ScriptedTier2(new RequestPlan(0, 1, 1, 1))
                .script(UNIT, Script.refuse(Integer.MAX_VALUE).thenUnreachable(Integer.MAX_VALUE).thenFail());
        for (int attempt = 1; attempt <= 1000; attempt++) {
            Job job = new Job("r-1", UNIT, attempt);
            Tier2Exception refused = assertThrows(Tier2Exception.class, () -> tier2.dial(job));
            assertEquals(Tier2Exception.Kind.REFUSED, refused.kind());
        }
        assertEquals(0, tier2.openCalls());
    }

    @Test
    void theStepsOfARepeatedScriptStillComeInOrderAndThenSucceed() throws Exception {
        ScriptedTier2 tier2 = new ScriptedTier2(new RequestPlan(0, 1, 1, 1))
                .script(UNIT, Script.refuse(2).thenRefuse(0).thenUnreachable(1).thenFail());
        int attempt = 0;
        for (Tier2Exception.Kind expected : new Tier2Exception.Kind[] {
                Tier2Exception.Kind.REFUSED, Tier2Exception.Kind.REFUSED, Tier2Exception.Kind.UNREACHABLE}) {
            Job job = new Job("r-1", UNIT, ++attempt);
            assertEquals(expected, assertThrows(Tier2Exception.class, () -> tier2.dial(job)).kind());
        }
        try (Tier2Call failing = tier2.dial(new Job("r-1", UNIT, ++attempt))) {
            assertEquals(Tier2Exception.Kind.RETRYABLE, assertThrows(Tier2Exception.class, failing::await).kind());
        }
        try (Tier2Call succeeding = tier2.dial(new Job("r-1", UNIT, ++attempt))) {
            succeeding.await();
        }
        assertEquals("Script[REFUSE, REFUSE, UNREACHABLE, FAIL]",
                Script.refuse(2).thenRefuse(0).thenUnreachable(1).thenFail().toString());
    }
}
