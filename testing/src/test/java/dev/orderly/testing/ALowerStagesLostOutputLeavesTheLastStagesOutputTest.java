package dev.orderly.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Regression: {@link Script#loseOutput()} scripted for a unit below the last stage removed the output of its
 * segment's last stage, a different unit's, which had already succeeded. Only a last-stage job writes an output to the
 * store, so a lower stage has none to lose. In a request, a lower-stage job that the engine had launched before the
 * last stage of its segment became runnable, and that ended just after that last stage succeeded, emptied the store
 * for the segment: the engine then re-ran a last stage whose own script never lost anything (one more re-run in
 * {@code RequestResult.reruns()} and {@code onRerun} than the script has losses, and with a sink made of a bare
 * {@code store::write}, an {@link UnsupportedOperationException} from a job that was only scripted to lose an output
 * it never had).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ALowerStagesLostOutputLeavesTheLastStagesOutputTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 10, 2, 4);
    private static final JobKey LAST = new JobKey(3, 1);
    private static final JobKey LOWER = new JobKey(3, 0);

    private static void run(ScriptedTier2 tier2, JobKey key) throws Exception {
        try (Tier2Call call = tier2.dial(new Job("r-1", key, 1))) {
            call.await();
        }
    }

    @Test
    void theKitsOwnStoreKeepsTheLastStagesOutput() throws Exception {
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN).script(LOWER, Script.loseOutput());
        run(tier2, LAST);
        run(tier2, LOWER);
        assertTrue(tier2.outputs().read(3).isPresent(),
                "the last stage's output was removed by a lower stage's scripted loss");
        assertArrayEquals(ScriptedTier2.outputOf(3), tier2.outputs().read(3).orElseThrow());
    }

    @Test
    void aTestsOwnSinkKeepsTheLastStagesOutput() throws Exception {
        Map<Long, byte[]> store = new ConcurrentHashMap<>();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, OutputSink.of(store::put, store::remove),
                job -> Script.succeed()).script(LOWER, Script.loseOutput());
        run(tier2, LAST);
        run(tier2, LOWER);
        assertTrue(store.containsKey(3L), "the last stage's output was removed by a lower stage's scripted loss");
    }

    @Test
    void aWriteOnlySinkIsNotAskedToDeleteForALowerStage() throws Exception {
        Map<Long, byte[]> store = new ConcurrentHashMap<>();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::put, job -> Script.succeed())
                .script(LOWER, Script.loseOutput());
        run(tier2, LAST);
        run(tier2, LOWER); // threw UnsupportedOperationException: the sink can not delete segment 3
        assertTrue(store.containsKey(3L));
        assertEquals(0, tier2.openCalls());
    }
}
