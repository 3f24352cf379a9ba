package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.ScriptedTier2;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 19, defect 9: a covered job whose {@code await()} returns normally after the engine's {@code close()} was
 * reported done, not abandoned, and its thread kept the interrupt flag the cancellation set.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ACoveredJobReturningAfterCloseIsAbandonedTest {

    private static EngineConfig config(boolean ordered) {
        return ordered ? Fixtures.fast() : Fixtures.fastUnordered();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aCoveredJobWhoseAwaitReturnsOnCloseIsAbandonedWithNoInterruptLeft(boolean ordered) throws Exception {
        RequestPlan plan = new RequestPlan(0, 2, 2, 2);
        JobKey covered = new JobKey(1, 0);
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch coveredAwaits = new CountDownLatch(1);
        Tier2Client tier2 = job -> {
            if (job.key().equals(covered)) {
                return new ReturnsOnClose(coveredAwaits);
            }
            // Segment 0's job, whose success makes segment 1's last stage runnable, waits for the covered job.
            if (!coveredAwaits.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("the covered job never awaited");
            }
            return () -> {
                if (job.key().stage() == plan.lastStage()) {
                    store.write(job.key().segment(), ScriptedTier2.outputOf(job.key().segment()));
                }
            };
        };
        List<JobKey> done = new CopyOnWriteArrayList<>();
        List<JobKey> abandoned = new CopyOnWriteArrayList<>();
        List<Boolean> interruptedWhenAbandoned = new CopyOnWriteArrayList<>();
        CountDownLatch coveredEnded = new CountDownLatch(1);
        RequestListener listener = new RequestListener() {
            @Override
            public void onJobDone(Job job) {
                done.add(job.key());
                if (job.key().equals(covered)) {
                    coveredEnded.countDown();
                }
            }

            @Override
            public void onAbandoned(JobKey key) {
                abandoned.add(key);
                interruptedWhenAbandoned.add(Thread.currentThread().isInterrupted());
                coveredEnded.countDown();
            }
        };
        RecordingClient client = new RecordingClient();

        // The client holds the last segment until the covered job has ended, so the end of the request (which
        // interrupts every thread left) can not be what the covered job's thread sees.
        Orderly.engine(config(ordered)).run(Request.of(plan, tier2, store, (segment, output) -> {
            client.accept(segment, output);
            if (segment == 1) {
                assertTrue(coveredEnded.await(10, TimeUnit.SECONDS), "the covered job never ended");
            }
        }).withListener(listener));

        assertEquals(Fixtures.range(0, 2), client.segments());
        assertFalse(done.contains(covered), "reported done: " + done);
        assertEquals(List.of(covered), abandoned);
        assertEquals(List.of(false), interruptedWhenAbandoned, "the job's thread kept the cancellation's interrupt");
    }

    /** A call whose await waits, ignoring interrupts, until the call is closed, then returns normally. */
    private static final class ReturnsOnClose implements Tier2Call {
        private final CountDownLatch awaiting;
        private final CountDownLatch closed = new CountDownLatch(1);

        ReturnsOnClose(CountDownLatch awaiting) {
            this.awaiting = awaiting;
        }

        @Override
        public void await() {
            awaiting.countDown();
            boolean interrupted = false;
            while (true) {
                try {
                    assertTrue(closed.await(10, TimeUnit.SECONDS), "never closed");
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close() {
            closed.countDown();
        }
    }
}
