package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.JobEndLedger;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 19, defect 8: a job cut short by the end of the request ended with no event. A lower stage held on a tier2
 * and covered by the last segment's higher stage, over 40 runs: one or two admitted jobs ended with none of
 * {@code onJobDone}, {@code onFailed}, {@code onAbandoned} (the walker's end raced {@code cancelCoveredBy}), and a
 * metrics listener counting running jobs leaked. The same for a job held on a tier2 when another job fails the
 * request: there the scope's interrupt always came first.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AJobCutShortByTheRequestsEndHearsItsEndTest {

    private static EngineConfig config(boolean ordered) {
        return ordered ? Fixtures.fast() : Fixtures.fastUnordered();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aJobHeldOnATier2WhenTheRequestFailsIsAbandoned(boolean ordered) throws Exception {
        RequestPlan plan = new RequestPlan(0, 2, 1, 2);
        JobKey held = new JobKey(1, 0);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2[] tier2 = new ScriptedTier2[1];
        tier2[0] = new ScriptedTier2(plan, store::write, job -> {
            if (job.key().equals(held)) {
                return Script.block();
            }
            // segment 0 fails the request once segment 1 is held on its tier2
            await().atMost(Duration.ofSeconds(10)).until(() -> tier2[0].blocked() == 1);
            return Script.throwOnDial(Tier2Exception.fatal("module panicked", null));
        });
        JobEndLedger ledger = new JobEndLedger();
        Background run = new Background(Orderly.engine(config(ordered)),
                Request.of(plan, tier2[0], store, new RecordingClient()).withListener(ledger));

        assertInstanceOf(RequestFailedException.class, run.failure(10));
        assertEquals(List.of(), ledger.violations());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aCoveredJobHeldWhenTheLastSegmentIsDeliveredHearsItsEnd(boolean ordered) throws Exception {
        for (int run = 0; run < 40; run++) {
            RequestPlan plan = new RequestPlan(0, 2, 2, 3);
            JobKey covered = new JobKey(1, 0);
            InMemoryOutputStore store = new InMemoryOutputStore();
            CountDownLatch coveredDialed = new CountDownLatch(1);
            ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write,
                    job -> coveredFirst(job, covered, coveredDialed));
            JobEndLedger ledger = new JobEndLedger();

            Orderly.engine(config(ordered)).run(Request.of(plan, tier2, store, new RecordingClient())
                    .withListener(ledger));

            assertEquals(List.of(), ledger.violations(), "run " + run);
        }
    }

    /** {@code covered} blocks in await; every other job succeeds once {@code covered} has dialed. */
    private static Script coveredFirst(Job job, JobKey covered, CountDownLatch coveredDialed)
            throws InterruptedException {
        if (job.key().equals(covered)) {
            coveredDialed.countDown();
            return Script.block();
        }
        coveredDialed.await();
        return Script.succeed();
    }
}
