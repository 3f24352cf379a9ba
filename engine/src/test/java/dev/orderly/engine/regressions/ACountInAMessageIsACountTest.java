package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 19, defect 7: with resume, a segment found in the store and gone at delivery, then three jobs that each lose
 * the output, failed with "output missing after 3 re-runs (4 successful jobs)": the tier2 saw 3. The count in the
 * message is the count of the unit's successful jobs.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ACountInAMessageIsACountTest {

    @Test
    void theSuccessfulJobsInTheMessageAreTheJobsThatSucceeded() {
        RequestPlan plan = new RequestPlan(0, 1, 1, 1);
        InMemoryOutputStore written = new InMemoryOutputStore();
        AtomicInteger reads = new AtomicInteger();
        // There when resume looks segment 0 up, gone when it is read for delivery, and never written by a job.
        OutputStore store = segment -> reads.getAndIncrement() == 0
                ? Optional.of(ScriptedTier2.outputOf(segment)) : Optional.empty();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, written::write, job -> Script.loseOutput());

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(plan, tier2, store, new RecordingClient()).withResume(true)));

        assertEquals(3, tier2.succeededCalls(), "jobs that succeeded on the tier2");
        assertTrue(e.getMessage().contains("output missing after 3 re-runs (3 successful jobs)"), e.getMessage());
    }

    @Test
    void withoutTheStoreEveryJobCounts() {
        RequestPlan plan = new RequestPlan(0, 1, 1, 1);
        InMemoryOutputStore written = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, written::write, job -> Script.loseOutput());

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(plan, tier2, written, new RecordingClient())));

        assertEquals(4, tier2.succeededCalls(), "jobs that succeeded on the tier2");
        assertTrue(e.getMessage().contains("output missing after 3 re-runs (4 successful jobs)"), e.getMessage());
    }
}
