package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: an admitted job cut short by the end of its request heard {@code onAbandoned} twice when a higher stage
 * of its segment came back done in that moment. The job reported its end for the interrupt, and then, finding itself
 * cancelled by the covering stage (a cancel that landed after its call was detached), took the interrupt for one meant
 * for its unit alone and reported its end again. A listener that counts running jobs went below zero.
 *
 * <p>Segment 1's stage 0 (X) and stage 1 (Y) are both admitted when the caller cancels the request. X's call answers
 * the interrupt; Y's ignores it and returns done once X has reported its end, and Y's success covers X. The listener
 * holds X's thread in its {@code onAbandoned} until Y's thread has ended, so the cover lands in the window.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AJobCutShortAndThenCoveredHearsItsEndOnceTest {

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void anAdmittedJobCutShortByTheRequestsEndIsAbandonedOnce(boolean ordered) throws Exception {
        RequestPlan plan = new RequestPlan(0, 2, 2, 3);
        JobKey x = new JobKey(1, 0);
        JobKey y = new JobKey(1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch bothAwait = new CountDownLatch(2);
        CountDownLatch releaseY = new CountDownLatch(1);
        CompletableFuture<Thread> yThread = new CompletableFuture<>();
        Tier2Client tier2 = job -> () -> {
            JobKey key = job.key();
            if (key.equals(x)) {
                bothAwait.countDown();
                new CountDownLatch(1).await(); // until the request's end interrupts it
            } else if (key.equals(y)) {
                yThread.complete(Thread.currentThread());
                bothAwait.countDown();
                awaitIgnoringInterrupts(releaseY);
            }
            if (key.stage() == plan.lastStage()) {
                store.write(key.segment(), new byte[] {1});
            }
        };
        List<String> xEvents = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onAdmitted(Job job) {
                record(job.key(), "admitted");
            }

            @Override
            public void onJobDone(Job job) {
                record(job.key(), "done");
            }

            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                record(job.key(), "failed");
            }

            @Override
            public void onAbandoned(JobKey key) {
                record(key, "abandoned");
                if (key.equals(x) && xEvents.size() == 2) {
                    // Y comes back done now, covering X; its thread ends after it has cancelled what it covers.
                    releaseY.countDown();
                    joinIgnoringInterrupts(yThread.join());
                }
            }

            private void record(JobKey key, String event) {
                if (key.equals(x)) {
                    xEvents.add(event);
                }
            }
        };
        Background run = new Background(Orderly.engine(ordered ? Fixtures.fast() : Fixtures.fastUnordered()),
                Request.of(plan, tier2, store, new RecordingClient()).withListener(listener));
        assertTrue(bothAwait.await(10, TimeUnit.SECONDS), "X and Y never both ran");

        run.interrupt();

        assertInstanceOf(InterruptedException.class, run.failure(20));
        assertEquals(List.of("admitted", "abandoned"), xEvents, "the events of " + x);
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                assertTrue(latch.await(10, TimeUnit.SECONDS), "never released");
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void joinIgnoringInterrupts(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                assertTrue(thread.join(Duration.ofSeconds(10)), "Y's thread never ended");
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
