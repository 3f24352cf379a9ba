package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.ScriptedTier2;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job that fails its request frees its place under the engine-wide job cap as it ends: a request waiting for a
 * place gets it then, not only once the failed request's last thread has ended. Here the failed request's other job
 * sits in a call that answers neither an interrupt nor a close, so that request's {@code run} is held back, and the
 * waiting request must still run to its end meanwhile.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AFailedJobsPlaceUnderTheCapGoesOnAtOnceTest {

    /** A call that answers neither interrupt nor close: it returns once released (or after 30 s, so no test hangs). */
    private static final class StuckCall implements Tier2Call {
        final CountDownLatch awaiting = new CountDownLatch(1);
        final CountDownLatch released = new CountDownLatch(1);

        @Override
        public void await() {
            awaiting.countDown();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (released.getCount() > 0 && System.nanoTime() < end) {
                try {
                    released.await(end - System.nanoTime(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException ignored) {
                    // as a blocking read that no interrupt reaches
                }
            }
        }

        @Override
        public void close() {
            // ignored: the call runs on until released
        }
    }

    @Test
    void aWaitingRequestGetsTheFailedJobsPlaceWhileTheFailedRequestStillWaitsForItsOtherJob() throws Throwable {
        Engine engine = Orderly.engine(Fixtures.fast().toBuilder().maxConcurrentJobs(2).build());
        StuckCall stuck = new StuckCall();
        CountDownLatch mayFail = new CountDownLatch(1);
        Tier2Client failing = job -> {
            if (job.key().segment() == 1) {
                return stuck;
            }
            mayFail.await(30, TimeUnit.SECONDS);
            throw Tier2Exception.fatal("bad module", null);
        };
        InMemoryOutputStore written = new InMemoryOutputStore();
        Tier2Client quick = job -> {
            written.write(job.key().segment(), ScriptedTier2.outputOf(job.key().segment()));
            return () -> { };
        };
        Background a = new Background(engine, Request.of(new RequestPlan(0, 2, 1, 2), failing,
                new InMemoryOutputStore(), new RecordingClient()));
        Background b = null;
        try {
            assertTrue(stuck.awaiting.await(10, TimeUnit.SECONDS), "segment 1's call was never awaited");
            // Both places are the first request's: the second waits for one.
            b = new Background(engine, Request.of(new RequestPlan(0, 1, 1, 1), quick, written,
                    new RecordingClient()));
            assertFalse(b.isDone());

            mayFail.countDown();

            assertEquals(1, b.get(10).segmentsDelivered(),
                    "the waiting request ran on the place the failed job left");
            assertFalse(a.isDone(), "the failed request still waits for its stuck job");
        } finally {
            mayFail.countDown();
            stuck.released.countDown();
            if (b != null) {
                b.interrupt();
            }
        }
        assertInstanceOf(RequestFailedException.class, a.failure(10));
    }
}
