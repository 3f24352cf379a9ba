package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A running job's handle on the paths other threads take: a cancel that finds a call, a job's end that must wait for
 * the canceller's close, and the request's one lock for interrupters, which every step that takes it must give back.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class JobHandleTest {

    private static final JobKey KEY = new JobKey(5, 0);
    private static final Duration BOUND = Duration.ofSeconds(5);

    @AfterEach
    void clearTheInterrupt() {
        Thread.interrupted();
    }

    @Test
    void theJobGetsBackTheCallItAttachedAndClosesItItself() {
        RunningJobs running = new RunningJobs(16, 2);
        JobHandle handle = running.start(KEY);
        CountingCall call = new CountingCall();
        assertTrue(handle.attach(call));
        assertSame(call, handle.detach(), "the job closes its own call");
        assertNull(handle.detach(), "and only once");

        handle.cancel();
        assertEquals(0, call.closes.get(), "a cancel after the detach finds no call to close");
        assertTrue(Thread.interrupted(), "it interrupts the job instead");
        running.end(handle);
    }

    @Test
    void aCancelClosesTheJobsCallOnceAndThenInterruptsIt() {
        RunningJobs running = new RunningJobs(16, 2);
        JobHandle handle = running.start(KEY);
        CountingCall call = new CountingCall();
        assertTrue(handle.attach(call));

        handle.cancel();
        assertEquals(1, call.closes.get(), "the canceller closed the call");
        assertTrue(handle.cancelled());
        assertFalse(handle.closing(), "the close is over");
        assertTrue(Thread.interrupted(), "the job is interrupted once the call is closed");
        assertNull(handle.detach(), "the call is the canceller's: the job must not close it again");

        handle.cancel();
        assertEquals(1, call.closes.get(), "a second cancel closes nothing");
        assertFalse(Thread.interrupted(), "and interrupts nothing");
        running.end(handle);
    }

    @Test
    void aCancelAfterTheJobEndedNeitherClosesNorInterrupts() {
        RunningJobs running = new RunningJobs(16, 2);
        JobHandle handle = running.start(KEY);
        CountingCall call = new CountingCall();
        assertTrue(handle.attach(call));
        running.end(handle);

        handle.cancel();
        assertEquals(0, call.closes.get());
        assertFalse(Thread.interrupted());
        assertFalse(handle.cancelled());
    }

    @Test
    void aJobsEndWaitsUntilTheCancellerHasClosedItsCall() throws Exception {
        RunningJobs running = new RunningJobs(16, 2);
        CountDownLatch closing = new CountDownLatch(1);
        CountDownLatch mayClose = new CountDownLatch(1);
        Tier2Call slowToClose = new Tier2Call() {
            @Override
            public void await() {
            }

            @Override
            public void close() {
                closing.countDown();
                try {
                    mayClose.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        CompletableFuture<JobHandle> registered = new CompletableFuture<>();
        CountDownLatch mayEnd = new CountDownLatch(1);
        CompletableFuture<Boolean> ended = new CompletableFuture<>();
        Thread job = Thread.ofVirtual().start(() -> {
            JobHandle handle = running.start(KEY);
            handle.attach(slowToClose);
            registered.complete(handle);
            try {
                mayEnd.await();
            } catch (InterruptedException e) {
                // Not expected (a cancel that takes a call interrupts only after the close); kept, and seen below.
                Thread.currentThread().interrupt();
            }
            running.end(handle);
            ended.complete(Thread.currentThread().isInterrupted());
        });
        Thread canceller = null;
        try {
            JobHandle handle = registered.get(5, TimeUnit.SECONDS);
            canceller = Thread.ofVirtual().start(handle::cancel);
            assertTrue(closing.await(5, TimeUnit.SECONDS), "the canceller took the call and closes it");
            mayEnd.countDown();
            await().during(Duration.ofMillis(300)).atMost(BOUND).until(() -> !ended.isDone());
            assertTrue(handle.closing());

            mayClose.countDown();
            assertFalse(ended.get(5, TimeUnit.SECONDS), "the job had begun its end: the canceller did not interrupt it");
        } finally {
            mayEnd.countDown();
            mayClose.countDown();
            job.join(BOUND);
            if (canceller != null) {
                canceller.join(BOUND);
            }
        }
        assertFalse(job.isAlive());
    }

    @Test
    void theLockForInterruptersIsFreeAfterEveryStepThatTakesIt() throws Exception {
        RunningJobs running = new RunningJobs(16, 2);
        // Each step on a thread of its own that then ends: a step that kept the lock would leave it held for good.
        JobHandle cancelledWithACall = onItsOwnThread(() -> {
            JobHandle handle = running.start(new JobKey(1, 0));
            handle.attach(new CountingCall());
            handle.cancel();
            running.end(handle);
            return handle;
        });
        JobHandle cancelledWaiting = onItsOwnThread(() -> {
            JobHandle handle = running.start(new JobKey(2, 0));
            handle.cancel();
            running.end(handle);
            return handle;
        });
        JobHandle withdrawn = onItsOwnThread(() -> {
            JobHandle handle = running.start(new JobKey(3, 0));
            assertTrue(running.withdraw(handle.key()));
            handle.settle();
            running.end(handle);
            return handle;
        });
        assertTrue(cancelledWithACall.cancelled() && cancelledWaiting.cancelled() && withdrawn.withdrawn());

        // A cancel from yet another thread takes the lock (of an ended job: it finds nothing to do, and interrupts
        // no one): it returns only if no earlier step kept the lock.
        JobHandle last = running.start(new JobKey(4, 0));
        running.end(last);
        CompletableFuture<Void> cancel = CompletableFuture.runAsync(last::cancel, Thread::startVirtualThread);
        cancel.get(5, TimeUnit.SECONDS);
        assertFalse(last.cancelled());
    }

    @Test
    void aSucceededUnitCancelsTheStagesUnderItNotItsOwnJob() {
        RunningJobs running = new RunningJobs(16, 3);
        JobHandle lower = running.start(new JobKey(7, 0));
        JobHandle same = running.start(new JobKey(7, 1));
        JobHandle higher = running.start(new JobKey(7, 2));
        running.cancelCoveredBy(new JobKey(7, 1));
        assertTrue(Thread.interrupted());
        assertTrue(lower.cancelled());
        assertFalse(same.cancelled(), "the job of the unit that succeeded is not one it covers");
        assertFalse(higher.cancelled());
        running.end(lower);
        running.end(same);
        running.end(higher);
    }

    private static JobHandle onItsOwnThread(Callable<JobHandle> step) throws Exception {
        CompletableFuture<JobHandle> done = new CompletableFuture<>();
        Thread thread = Thread.ofVirtual().start(() -> {
            try {
                done.complete(step.call());
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        });
        try {
            return done.get(5, TimeUnit.SECONDS);
        } finally {
            thread.join(BOUND);
        }
    }

    private static final class CountingCall implements Tier2Call {
        final AtomicInteger closes = new AtomicInteger();

        @Override
        public void await() {
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }
}
