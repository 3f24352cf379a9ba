package dev.orderly.engine.regressions;

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
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Regression tests for how a request that fails ends; each failed before its fix. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailedRequestRegressionTest {

    /**
     * A job's failure that fails the request cancels it: nothing more is dialed. The bug: the failed job freed its
     * worker before its failure reached the request scope, so the owner could fork, and the new job dial, one more
     * unit. 1 worker, segment 2's job fails fatally: exactly 3 dials. A race, so the scenario runs up to 5,000 times
     * (about a second); before the fix each of 8 passes (both scopes, ordered and not, twice) hit it within 400 runs.
     *
     * <p>Not killed, and not killable by a test: the mutant that drops the {@code scheduler.jobFailed()} call of a
     * job that throws. Then the failed job's worker is never freed, so the owner can fork nothing into it (this
     * test's bug needs it freed); what {@code jobFailed} adds beyond that is that a worker freed by <em>another</em>
     * job, ending well in the few instructions between the failed job's {@code jobFailed} and the scope's
     * {@code scheduler.stop()} on that same thread, is not handed out either. No test can place a job's end inside
     * that window.
     */
    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aFailedRequestStillDialsOneMoreJob(boolean ordered) {
        EngineConfig config = ordered ? Fixtures.fast() : Fixtures.fastUnordered();
        RequestPlan plan = new RequestPlan(0, 10, 1, 1);
        JobKey failing = new JobKey(2, 0);
        for (int run = 1; run <= 5_000; run++) {
            InMemoryOutputStore store = new InMemoryOutputStore();
            ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> job.key().equals(failing)
                    ? Script.throwOnAwait(Tier2Exception.fatal("bad module", null)) : Script.succeed());

            Throwable thrown = new Background(Orderly.engine(config),
                    Request.of(plan, tier2, store, new RecordingClient())).failure(10);

            RequestFailedException failure = assertInstanceOf(RequestFailedException.class, thrown);
            assertEquals(Optional.of(failing), failure.key());
            List<JobKey> dialed = tier2.log().dials().stream().map(Job::key).toList();
            assertEquals(List.of(new JobKey(0, 0), new JobKey(1, 0), failing), dialed,
                    "run " + run + " dialed after the request failed");
        }
    }
}
