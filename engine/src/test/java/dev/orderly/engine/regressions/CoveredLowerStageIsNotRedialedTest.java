package dev.orderly.engine.regressions;

import static dev.orderly.engine.Fixtures.range;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A unit that a done higher stage of its segment covers is no longer needed: the job of that higher stage produced
 * its partials. A job of the covered unit that fails afterwards is neither retried (it would spend a worker and a
 * tier2 slot on work nobody will read) nor allowed to fail the request, whatever the failure: a retryable error, or a
 * client that throws or returns no call. This holds while the segment is still ahead of the client (the other half
 * of the rule, "its segment was delivered", is tested where shadowed jobs fail late).
 *
 * <p>Unit (1, 0) is launched first, since (1, 1) must wait for segment 0's stage 0, which (0, 1) produces once
 * (1, 0) has dialed. The dial of (1, 0) (or, for the errors from await, its call's await) is held until (1, 1) is done
 * (seen by the dial of (2, 1), which the scheduler starts only then), and then fails. The client holds segment 0 all
 * along, so segment 1 is not delivered while this happens. The held dial or await ignores the interrupt by which the
 * engine cancels the covered job, as a client whose blocking call is not interruptible does: otherwise the job would
 * end on that interrupt and the failure under test would never happen.
 *
 * <p>Equivalent mutant: {@code JobRunner.run} returning null instead of {@code Outcome.ABANDONED} for such a job. Its
 * only caller asks whether the outcome is {@code DONE}; null and ABANDONED both answer no, so no behaviour differs.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CoveredLowerStageIsNotRedialedTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 4, 2, 3);
    private static final JobKey COVERED = new JobKey(1, 0);
    private static final JobKey COVERING = new JobKey(1, 1);
    /** Runnable only once the scheduler has (1, 1) done: its dial tells the test that (1, 0) is covered. */
    private static final JobKey AFTER_COVERING = new JobKey(2, 1);

    @ParameterizedTest(name = "{0}, ordered={1}")
    @CsvSource({
        "retryable error from await, true", "retryable error from await, false",
        "client exception from await, true", "client exception from await, false",
        "client exception from dial, true", "client exception from dial, false",
        "no call from dial, true", "no call from dial, false"})
    void aLowerStageThatFailsAfterAHigherStageOfItsSegmentIsDoneIsNotRedialed(String failure, boolean ordered)
            throws Throwable {
        EngineConfig config = ordered ? Fixtures.fast() : Fixtures.fastUnordered();
        CountDownLatch coveredDialing = new CountDownLatch(1);
        CountDownLatch coveringDone = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger coveredDials = new AtomicInteger();
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 scripted = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        Tier2Client tier2 = job -> {
            if (job.key().equals(AFTER_COVERING)) {
                coveringDone.countDown();
            }
            if (job.key().equals(new JobKey(0, 1)) && !coveredDialing.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException(COVERED + " never dialed");
            }
            if (!job.key().equals(COVERED)) {
                return scripted.dial(job);
            }
            coveredDials.incrementAndGet();
            if (job.attempt() > 1) {
                return scripted.dial(job);
            }
            coveredDialing.countDown();
            switch (failure) {
                case "client exception from dial" -> {
                    awaitIgnoringInterrupts(coveringDone);
                    throw new IllegalStateException("client bug");
                }
                case "no call from dial" -> {
                    awaitIgnoringInterrupts(coveringDone);
                    return null;
                }
                case "retryable error from await" -> {
                    return () -> {
                        awaitIgnoringInterrupts(coveringDone);
                        throw Tier2Exception.retryable("stream reset", null);
                    };
                }
                default -> {
                    return () -> {
                        awaitIgnoringInterrupts(coveringDone);
                        throw new IllegalArgumentException("decoder bug");
                    };
                }
            }
        };
        RecordingClient recorder = new RecordingClient();
        Background run = new Background(Orderly.engine(config), Request.of(PLAN, tier2, store, (segment, output) -> {
            if (segment == 0 && !release.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released segment 0");
            }
            recorder.accept(segment, output);
        }));
        try {
            assertTrue(coveringDone.await(10, TimeUnit.SECONDS), COVERING + " never done");
            // The covered unit's job fails now (or is cancelled, being no longer needed). The failure delay is
            // 20 ms: a redial would come well within this.
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertEquals(1,
                    coveredDials.get(), COVERED + " dials, after " + COVERING + " was done"));
            assertTrue(recorder.segments().isEmpty(), "delivered before the release: " + recorder.segments());
        } finally {
            release.countDown();
        }

        run.get(10);
        assertEquals(range(0, 4), recorder.segments());
        assertEquals(1, coveredDials.get(), COVERED + " dials");
        assertEquals(List.of(), scripted.dependencyViolations());
        assertEquals(0, scripted.openCalls(), "open calls");
    }

    /** Waits for {@code latch} through any interrupt, then restores the interrupt; fails after 10 s. */
    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (!latch.await(10, TimeUnit.SECONDS)) {
                        throw new IllegalStateException(COVERING + " was never done");
                    }
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
