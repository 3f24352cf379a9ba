package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@code Tier2Client} whose {@code dial} throws an {@code InterruptedException} of its own (not the request's
 * cancellation) fails the request naming the unit, and "the interrupt stays on the thread" (RequestRun.UnitJob): the
 * job's thread, captured by the client, is interrupted once {@code run} has ended. (Under the structured scope nothing
 * else interrupts the failing job's thread: the scope's cancellation runs on it and spares it. Under the threads scope
 * the owner interrupts it too, so this passes there either way.) Kills round 62's surviving removal of
 * {@code UnitJob.call}'s {@code Thread.interrupt}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ATier2sOwnInterruptedExceptionStaysOnTheJobsThreadTest {

    @Test
    void theJobsThreadIsLeftInterruptedByADialsOwnInterruptedException() {
        RequestPlan plan = new RequestPlan(0, 2, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 scripted = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        AtomicReference<Thread> jobThread = new AtomicReference<>();
        Tier2Client tier2 = job -> {
            if (job.key().segment() == 1) {
                jobThread.set(Thread.currentThread());
                throw new InterruptedException("the client's own connect timer");
            }
            return scripted.dial(job);
        };

        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, output) -> { }).withId("r-job-ie")).failure(10);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(Optional.of(new JobKey(1, 0)), e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith("segment 1 stage 0 failed on attempt 1: the job's thread was interrupted,"
                + " and not by a cancellation of the request"), e.getMessage());
        assertInstanceOf(InterruptedException.class, e.getCause());
        assertNotNull(jobThread.get(), "segment 1 was never dialed");
        assertTrue(jobThread.get().isInterrupted(), "the job's thread, after run, lost the interrupt of the client's"
                + " InterruptedException");
    }
}
