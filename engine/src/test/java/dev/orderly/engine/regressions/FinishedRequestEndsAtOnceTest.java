package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.ThreadCensus;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bug: a finished request waited for jobs nobody needed, and hung if one hung. Plan {@code (0, 2, 2, 2)}: segment 1's
 * stage-1 job covers {@code (1, 0)}, so once it is done every segment can be delivered while {@code (1, 0)} is still
 * alive. When the last segment is delivered the request's scope must cancel what is left and {@code run} return
 * without waiting for any tier2 (on either request scope: the engine suite runs once per scope).
 *
 * <p>The delays are an hour long and a blocked {@code await} never ends on its own, so a {@code run} that returns
 * within the test's 10 s was cut short, not waited out.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FinishedRequestEndsAtOnceTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 2, 2, 2);
    private static final JobKey COVERED = new JobKey(1, 0);
    private static final JobKey FIRST_OUTPUT = new JobKey(0, 1);

    private static EngineConfig hourLongDelays(boolean ordered) {
        return EngineConfig.builder()
                .refusedDelay(Duration.ofHours(1))
                .failureDelay(Duration.ofHours(1))
                .ordered(ordered)
                .build();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aFinishedRequestDoesNotWaitForACoveredJobThatHangsInAwait(boolean ordered) throws Throwable {
        CountDownLatch coveredAdmitted = new CountDownLatch(1);
        RequestListener listener = new RequestListener() {
            @Override
            public void onAdmitted(Job job) {
                if (job.key().equals(COVERED)) {
                    coveredAdmitted.countDown();
                }
            }
        };
        ScriptedTier2.DialRule script = job -> {
            if (job.key().equals(COVERED)) {
                return Script.block();
            }
            if (job.key().equals(FIRST_OUTPUT)) {
                // Nothing can cover (1, 0) before (0, 1) is done: holding it here makes sure (1, 0) was admitted
                // (and goes on to block in await) rather than found unneeded before it dialed.
                coveredAdmitted.await();
            }
            return Script.succeed();
        };

        RequestResult result = runToTheEndLeavingNothing(ordered, script, listener);

        assertEquals(0, result.failures());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aFinishedRequestDoesNotSitOutTheFailureDelayOfACoveredJob(boolean ordered) throws Throwable {
        CountDownLatch coveredFailed = new CountDownLatch(1);
        RequestListener listener = new RequestListener() {
            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                if (job.key().equals(COVERED)) {
                    coveredFailed.countDown();
                }
            }
        };
        AtomicReference<Thread> coveredJob = new AtomicReference<>();
        ScriptedTier2.DialRule script = job -> {
            if (job.key().equals(COVERED)) {
                coveredJob.set(Thread.currentThread());
                return Script.throwOnAwait(Tier2Exception.retryable("stream reset", null));
            }
            if (job.key().equals(FIRST_OUTPUT)) {
                // Nothing can cover (1, 0) before (0, 1) is done: holding it until (1, 0) failed and sits in a timed
                // wait (its hour-long failure delay) makes sure it failed while still needed, rather than stopping
                // quietly because (1, 1) was already done.
                coveredFailed.await();
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> coveredJob.get().getState() == Thread.State.TIMED_WAITING);
            }
            return Script.succeed();
        };

        RequestResult result = runToTheEndLeavingNothing(ordered, script, listener);

        assertEquals(1, result.failures());
    }

    /**
     * Runs the plan on {@code script}, failing if {@code run} takes 10 s (a run still going then is interrupted, so
     * the test leaves no thread), and checks both segments were delivered and nothing of the request is left.
     */
    private static RequestResult runToTheEndLeavingNothing(boolean ordered, ScriptedTier2.DialRule script,
            RequestListener listener) throws Throwable {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, script);
        RecordingClient client = new RecordingClient();
        ThreadCensus census = new ThreadCensus();
        Background run = new Background(census.engine(hourLongDelays(ordered)),
                Request.of(PLAN, tier2, store, client).withListener(listener));
        RequestResult result;
        try {
            result = run.get(10);
        } finally {
            if (!run.isDone()) {
                run.interrupt();
                run.failure(10);
            }
        }
        assertEquals(Fixtures.range(0, 2), client.segments());
        assertEquals(2, result.segmentsDelivered());
        assertEquals(0, census.alive(), "request threads alive after run returned");
        assertEquals(0, tier2.blocked(), "threads still blocked in the tier2");
        assertEquals(0, tier2.openCalls(), "tier2 calls left open");
        return result;
    }
}
