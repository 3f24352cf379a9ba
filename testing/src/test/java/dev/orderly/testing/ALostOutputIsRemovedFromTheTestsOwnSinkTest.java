package dev.orderly.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: with the test's own {@link OutputSink}, {@link Script#loseOutput()} only skipped the write, so an
 * output an earlier attempt of the unit had written stayed in the test's store, and the engine read it as if the
 * lost job had left it: the javadoc's "the output is not in the store" held only for the kit's own store. A sink now
 * has {@link OutputSink#delete(long)}, which a lost output calls; a sink that can not delete (a bare
 * {@code store::write}) says so when a loss needs it, naming the segment and what to give instead.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ALostOutputIsRemovedFromTheTestsOwnSinkTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 10, 2, 4);
    private static final JobKey LAST = new JobKey(3, 1);

    private static void run(ScriptedTier2 tier2, int attempt) throws Exception {
        try (Tier2Call call = tier2.dial(new Job("r-1", LAST, attempt))) {
            call.await();
        }
    }

    @Test
    void anOutputAnEarlierAttemptWroteIsGoneFromTheSinkAfterALoss() throws Exception {
        Map<Long, byte[]> store = new ConcurrentHashMap<>();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, OutputSink.of(store::put, store::remove),
                job -> Script.succeed());
        tier2.script(LAST, Script.succeed().thenLoseOutput());
        run(tier2, 1);
        assertTrue(store.containsKey(3L), "the first attempt wrote its output");
        run(tier2, 2);
        assertFalse(store.containsKey(3L), "the output is still in the test's store after a scripted loss");
        run(tier2, 3);
        assertTrue(store.containsKey(3L), "the next run writes it again");
        assertEquals(0, tier2.openCalls());
    }

    @Test
    void aWriteOnlySinkServesALossOfASegmentItNeverSaw() throws Exception {
        Map<Long, byte[]> store = new ConcurrentHashMap<>();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::put, job -> Script.succeed());
        tier2.script(LAST, Script.loseOutput());
        run(tier2, 1);
        assertFalse(store.containsKey(3L));
        run(tier2, 2);
        assertTrue(store.containsKey(3L));
    }

    @Test
    void aSinkThatCanNotDeleteSaysSoWhenAnOutputIsLost() throws Exception {
        Map<Long, byte[]> store = new ConcurrentHashMap<>();
        OutputSink writeOnly = store::put;
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, writeOnly, job -> Script.succeed());
        tier2.script(LAST, Script.succeed().thenLoseOutput());
        run(tier2, 1);
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> run(tier2, 2));
        assertEquals("this OutputSink can not delete the output of segment 3, which a Script.loseOutput() asks after an"
                + " earlier attempt wrote it; make the sink with OutputSink.of(store::write, store::delete), or"
                + " implement delete", e.getMessage());
        assertTrue(store.containsKey(3L), "nothing deleted it");
        assertEquals(0, tier2.openCalls());
    }
}
