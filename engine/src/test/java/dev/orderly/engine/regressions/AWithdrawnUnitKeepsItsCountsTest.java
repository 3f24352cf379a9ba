package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: a unit whose job was withdrawn (its worker given up to the re-run of the client's segment) was launched
 * again from no counts. A unit that had timed out once and was withdrawn while it sat out its failure delay started
 * over at attempt 1, with its give-up limits reset (two more timeouts, not one, before the request failed) and no
 * failure delay before its next dial. A withdrawn unit now goes on from its counts, and its next dial still waits the
 * failure delay.
 *
 * <p>Plan 4 x 1 on 3 workers. Segment 3's first dial times out (1 of {@code maxExecutionTimeouts} 2). While its job
 * sits out the failure delay, segment 0's output is found missing with every worker taken (segments 1 and 2 are held
 * on their tier2 until the client has segment 0), so segment 3's job is the one withdrawn for the re-run.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AWithdrawnUnitKeepsItsCountsTest {

    private static final Duration FAILURE_DELAY = Duration.ofSeconds(1);
    private static final JobKey UNIT = WithdrawnForTheReRun.UNIT;

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aUnitWithdrawnInItsFailureDelayGoesOnFromItsCounts(boolean ordered) throws Throwable {
        EngineConfig config = EngineConfig.builder().ordered(ordered).refusedDelay(Duration.ofMillis(2))
                .failureDelay(FAILURE_DELAY).maxExecutionTimeouts(2).build();
        WithdrawnForTheReRun scene = new WithdrawnForTheReRun();
        CountDownLatch unitTimedOut = new CountDownLatch(1);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        List<Long> dialedAt = new CopyOnWriteArrayList<>();
        Tier2Client tier2 = job -> {
            if (job.key().equals(UNIT)) {
                attempts.add(job.attempt());
                dialedAt.add(System.nanoTime());
                throw Tier2Exception.executionTimeout("too slow");
            }
            return scene.call(job);
        };
        RequestListener listener = new RequestListener() {
            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                // Counted, and off the dial: from here the job sits out its failure delay.
                if (job.key().equals(UNIT)) {
                    unitTimedOut.countDown();
                }
            }
        };
        OutputStore store = scene.store(unitTimedOut, "timed out");
        Background run = new Background(Orderly.engine(config), Request.of(WithdrawnForTheReRun.PLAN, tier2, store,
                (segment, output) -> scene.delivered(segment)).withListener(listener));

        Throwable outcome = null;
        try {
            run.get(30);
        } catch (Throwable t) {
            outcome = t;
        }

        Throwable ended = outcome;
        assertEquals(List.of(1, 2), attempts, () -> "the unit's attempts; the request ended with " + ended);
        RequestFailedException failed = assertInstanceOf(RequestFailedException.class, runFailure(ended));
        assertTrue(failed.getMessage().contains("timed out 2 times"), failed::getMessage);
        long gap = dialedAt.get(1) - dialedAt.get(0);
        assertTrue(gap >= FAILURE_DELAY.toNanos(), () -> "the unit dialed again " + TimeUnit.NANOSECONDS.toMillis(gap)
                + " ms after it timed out, before its failure delay of " + FAILURE_DELAY.toMillis() + " ms");
    }

    private static Throwable runFailure(Throwable outcome) {
        if (outcome == null) {
            throw new AssertionError("the request succeeded although its unit (3,0) timed out twice");
        }
        return outcome;
    }
}
