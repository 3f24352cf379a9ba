package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.ScriptedTier2;
import java.net.SocketException;
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
 * Regression: a covered job whose {@code await()} threw a checked exception other than {@code Tier2Exception} once the
 * engine had closed its call failed the whole request ("request r failed: java.net.SocketException: Socket closed"),
 * although its unit was covered and every segment delivered. A {@code Tier2Call} written in Kotlin (or with
 * {@code @SneakyThrows}) that blocks on a socket read and closes the socket in {@code close()} does exactly this: the
 * read throws {@code SocketException}, an {@code IOException}, which such code need not declare. The engine rules say
 * any exception from a call the engine closed because its unit was covered ends the job as abandoned.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ACoveredJobWhoseCallThrowsACheckedExceptionOnCloseIsAbandonedTest {

    private static EngineConfig config(boolean ordered) {
        return ordered ? Fixtures.fast() : Fixtures.fastUnordered();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aCoveredJobsCheckedExceptionAfterCloseEndsItQuietly(boolean ordered) throws Exception {
        RequestPlan plan = new RequestPlan(0, 2, 2, 2);
        JobKey covered = new JobKey(1, 0);
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch coveredAwaits = new CountDownLatch(1);
        CompletableFuture<Thread> coveredThread = new CompletableFuture<>();
        Tier2Client tier2 = job -> {
            if (job.key().equals(covered)) {
                coveredThread.complete(Thread.currentThread());
                return new ThrowsOnClose(coveredAwaits);
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
        List<JobKey> abandoned = new CopyOnWriteArrayList<>();
        List<JobKey> failed = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                failed.add(job.key());
            }

            @Override
            public void onAbandoned(JobKey key) {
                abandoned.add(key);
            }
        };
        RecordingClient client = new RecordingClient();

        // The client holds the last segment until the covered job's thread has ended, so its end (and a failure it
        // might report to the scope) comes before the request's own end, which would cut it short.
        Orderly.engine(config(ordered)).run(Request.of(plan, tier2, store, (segment, output) -> {
            client.accept(segment, output);
            if (segment == 1) {
                Thread thread = coveredThread.get(10, TimeUnit.SECONDS);
                assertTrue(thread.join(Duration.ofSeconds(10)), "the covered job never ended");
            }
        }).withListener(listener));

        assertEquals(Fixtures.range(0, 2), client.segments());
        assertEquals(List.of(covered), abandoned);
        assertEquals(List.of(), failed);
    }

    /**
     * A call whose await waits, ignoring interrupts, until the call is closed, then throws what a socket read throws
     * when its socket is closed: a checked exception, thrown as Kotlin throws it (undeclared).
     */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneaky(Throwable e) throws E {
        throw (E) e;
    }

    private static final class ThrowsOnClose implements Tier2Call {
        private final CountDownLatch awaiting;
        private final CountDownLatch closed = new CountDownLatch(1);

        ThrowsOnClose(CountDownLatch awaiting) {
            this.awaiting = awaiting;
        }

        @Override
        public void await() {
            awaiting.countDown();
            while (true) {
                try {
                    assertTrue(closed.await(10, TimeUnit.SECONDS), "never closed");
                    break;
                } catch (InterruptedException e) {
                    // waits on for the close
                }
            }
            ACoveredJobWhoseCallThrowsACheckedExceptionOnCloseIsAbandonedTest.<RuntimeException>sneaky(
                    new SocketException("Socket closed"));
        }

        @Override
        public void close() {
            closed.countDown();
        }
    }
}
