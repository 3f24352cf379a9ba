package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Orderly;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a refused unit whose job was withdrawn (its worker given up to the re-run of the client's segment)
 * while it sat out its {@code refusedDelay} was launched again owing nothing: its next job dialed at once, hammering
 * the tier2 that had just refused it. The guide says a refused job redials after {@code refusedDelay}, and with
 * {@code ordered(false)} "it always waits the whole delay"; a failure delay owed is already passed on to the unit's
 * next job ({@code AWithdrawnUnitKeepsItsCountsTest}), a refused delay was lost.
 *
 * <p>Plan 4 x 1 on 3 workers, unordered. Segment 3's first dial is refused (refusedDelay 10 minutes). While its job
 * sits out the delay, segment 0's output is found missing with every worker taken (segments 1 and 2 are held on their
 * tier2 until the client has segment 0), so segment 3's job is the one withdrawn for the re-run. Once the client has
 * segments 0 to 2, workers are free and segment 3 is launched again: its second dial must not come within seconds of
 * a refusal ten minutes long.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AUnitWithdrawnInItsRefusedDelayStillWaitsItTest {

    private static final Duration REFUSED_DELAY = Duration.ofMinutes(10);
    private static final JobKey UNIT = WithdrawnForTheReRun.UNIT;

    @Test
    void aUnitWithdrawnInItsRefusedDelayDoesNotRedialAtOnce() throws Throwable {
        EngineConfig config = EngineConfig.builder().ordered(false).refusedDelay(REFUSED_DELAY)
                .failureDelay(Duration.ofMillis(1)).build();
        WithdrawnForTheReRun scene = new WithdrawnForTheReRun();
        CountDownLatch clientHasSegment2 = new CountDownLatch(1);
        CountDownLatch unitRefused = new CountDownLatch(1);
        CountDownLatch unitWithdrawn = new CountDownLatch(1);
        List<Long> dialedAt = new CopyOnWriteArrayList<>();
        Tier2Client tier2 = job -> {
            if (job.key().equals(UNIT)) {
                dialedAt.add(System.nanoTime());
                if (job.attempt() == 1) {
                    throw Tier2Exception.refused("no slot free");
                }
            }
            return scene.call(job);
        };
        RequestListener listener = new RequestListener() {
            @Override
            public void onRefused(Job job, Tier2Exception cause) {
                if (job.key().equals(UNIT)) {
                    unitRefused.countDown();
                }
            }

            @Override
            public void onAbandoned(JobKey key) {
                if (key.equals(UNIT)) {
                    unitWithdrawn.countDown();
                }
            }
        };
        OutputStore store = scene.store(unitRefused, "refused");
        Background run = new Background(Orderly.engine(config), Request.of(WithdrawnForTheReRun.PLAN, tier2, store,
                (segment, output) -> {
                    scene.delivered(segment);
                    if (segment == 2) {
                        clientHasSegment2.countDown();
                    }
                }).withListener(listener));
        try {
            assertTrue(unitWithdrawn.await(20, TimeUnit.SECONDS), "segment 3's job was never withdrawn");
            assertTrue(clientHasSegment2.await(20, TimeUnit.SECONDS), "the client never got segment 2");
            // Every worker but one is free now, and segment 3 is launched again. Its redial, if any, comes within
            // milliseconds; its refused delay is ten minutes.
            try {
                await().atMost(Duration.ofSeconds(5)).until(() -> dialedAt.size() >= 2);
            } catch (ConditionTimeoutException stillWaiting) {
                return; // it sits out its refused delay, as the guide says
            }
            long gap = dialedAt.get(1) - dialedAt.get(0);
            assertTrue(gap >= REFUSED_DELAY.toNanos(), () -> "segment 3 was refused, withdrawn in its refused delay,"
                    + " and dialed again " + TimeUnit.NANOSECONDS.toMillis(gap) + " ms after the refusal, before its"
                    + " refusedDelay of " + REFUSED_DELAY.toMillis() + " ms (ordered(false): it always waits the whole"
                    + " delay)");
        } finally {
            // Done already if segment 3 redialed (and got in); else cut short here, not ten minutes from now.
            run.interrupt();
            await().atMost(Duration.ofSeconds(30)).until(run::isDone);
        }
    }
}
