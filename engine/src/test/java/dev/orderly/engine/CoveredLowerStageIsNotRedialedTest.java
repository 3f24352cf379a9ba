package dev.orderly.engine;

import static dev.orderly.engine.Fixtures.range;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A unit that a done higher stage of its segment covers is no longer needed: the job of that higher stage produced
 * its partials. A job of the covered unit that fails afterwards is not retried: it would spend a worker and a tier2
 * slot on work nobody will read. This holds while the segment is still ahead of the client (the other half of the
 * rule, "its segment was delivered", is tested where shadowed jobs fail late).
 *
 * <p>Unit (1, 0) is launched first, since (1, 1) must wait for segment 0's stage 0, which (0, 1) produces once
 * (1, 0) has dialed. The job of (1, 0) stays in its dial until (1, 1) is done, then fails with a retryable error. The client holds segment 0 all along, so segment 1 is not
 * delivered while this happens.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CoveredLowerStageIsNotRedialedTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 4, 2, 3);
    private static final JobKey COVERED = new JobKey(1, 0);
    private static final JobKey COVERING = new JobKey(1, 1);

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aLowerStageThatFailsAfterAHigherStageOfItsSegmentIsDoneIsNotRedialed(boolean ordered) throws Throwable {
        EngineConfig config = ordered ? Fixtures.fast() : Fixtures.fastUnordered();
        CountDownLatch coveredDialing = new CountDownLatch(1);
        CountDownLatch coveringDone = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store, job -> {
            if (job.key().equals(new JobKey(0, 1)) && !coveredDialing.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException(COVERED + " never dialed");
            }
            if (job.key().equals(COVERED) && job.attempt() == 1) {
                coveredDialing.countDown();
                if (!coveringDone.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException(COVERING + " was never done");
                }
                return ScriptedTier2.awaitThrows(Tier2Exception.retryable("stream reset", null));
            }
            return ScriptedTier2.OK;
        });
        RequestListener events = new RequestListener() {
            @Override
            public void onJobDone(Job job) {
                if (job.key().equals(COVERING)) {
                    coveringDone.countDown();
                }
            }
        };
        RecordingClient recorder = new RecordingClient();
        Background run = new Background(Orderly.engine(config), Request.of(PLAN, tier2, store, (segment, output) -> {
            if (segment == 0 && !release.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released segment 0");
            }
            recorder.accept(segment, output);
        }).withListener(events));
        try {
            assertTrue(coveringDone.await(10, TimeUnit.SECONDS), COVERING + " never done");
            // The covered unit's job fails now (or is cancelled, being no longer needed). The failure delay is
            // 20 ms: a redial would come well within this.
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertEquals(1,
                    tier2.dialsOf(COVERED), COVERED + " dials, after " + COVERING + " was done"));
            assertTrue(recorder.segments().isEmpty(), "delivered before the release: " + recorder.segments());
        } finally {
            release.countDown();
        }

        RequestResult result = run.get(10);
        assertEquals(range(0, 4), recorder.segments());
        assertEquals(1, tier2.dialsOf(COVERED), COVERED + " dials");
        assertEquals(List.of(), tier2.dependencyViolations());
        assertEquals(0, tier2.openCalls(), "open calls");
        assertTrue(result.failures() <= 1, "failures: " + result.failures());
    }
}
