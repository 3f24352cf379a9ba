package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.RequestPlan;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Rules of {@link ThreadsRequestScope} that {@link RequestScopeRulesTest} leaves open, each pinned on the threads
 * scope itself: mutation testing runs the suite in one JVM configuration (the structured scope), so the engine-level
 * tests that reach these paths only under {@code orderly.scope=threads} do not count for this class there.
 *
 * <ul>
 *   <li>A failure that cancelled the scope, followed by an interrupt of the owner while it waits for the threads to
 *       wind up: {@code run} returns that failure and leaves the owner's interrupt set ({@link RequestScope#run}: the
 *       first failure; the interrupt is only a late cut into the teardown).
 *   <li>A fork after the scope was cancelled starts nothing (the class's first rule, as a fork into a cancelled
 *       {@code StructuredTaskScope}).
 *   <li>A second failure that comes while the first one is still cancelling the scope (the scope is not marked
 *       cancelled yet) does not replace the first: {@code run} returns the first failure.
 * </ul>
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ThreadsRequestScopeMutantsTest {

    /** 10 segments of 1 stage, 2 workers: the owner's first batch hands out jobs 0 and 1. */
    private static final RequestPlan PLAN = new RequestPlan(0, 10, 1, 2);
    private static final String REQUEST = "threads-mutants";

    /** One run of a threads scope on a virtual owner of its own, with what the owner saw the moment run ended. */
    private static final class Run {
        final Scheduler scheduler = new Scheduler(PLAN, 4);
        final ConcurrentLinkedQueue<Thread> threads = new ConcurrentLinkedQueue<>();
        final RequestScope scope = new ThreadsRequestScope(REQUEST, scheduler, threads::add);
        final CompletableFuture<Optional<Throwable>> outcome = new CompletableFuture<>();
        volatile Thread owner;
        volatile boolean ownerInterruptedWhenRunEnded;
        volatile List<Thread> aliveWhenRunEnded;

        void start(Callable<Void> walker, RequestScope.Jobs jobs) {
            owner = Thread.ofVirtual().name("threads-mutants-owner").start(() -> {
                Optional<Throwable> result;
                try {
                    result = scope.run(walker, jobs);
                } catch (Throwable t) {
                    ended();
                    outcome.completeExceptionally(t);
                    return;
                }
                ended();
                outcome.complete(result);
            });
        }

        private void ended() {
            ownerInterruptedWhenRunEnded = Thread.currentThread().isInterrupted();
            aliveWhenRunEnded = threads.stream().filter(Thread::isAlive).toList();
        }

        Optional<Throwable> result(String what) throws Exception {
            try {
                return outcome.get(10, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                owner.interrupt();
                throw new AssertionError("run did not return within 10 s " + what, e);
            } catch (ExecutionException e) {
                throw new AssertionError("run threw instead of returning " + what, e.getCause());
            }
        }
    }

    /** Waits, costing no CPU, until interrupted; then counts {@code interrupted} down and rethrows. */
    private static Void blockUntilInterrupted(CountDownLatch interrupted) throws InterruptedException {
        try {
            new CountDownLatch(1).await();
            throw new AssertionError("released without an interrupt");
        } catch (InterruptedException e) {
            interrupted.countDown();
            throw e;
        }
    }

    @Test
    void aFailureThatCancelledTheScopeIsReturnedWithTheInterruptSetWhenTheOwnerIsInterruptedInTheTeardown()
            throws Exception {
        IllegalStateException failure = new IllegalStateException("job 0 failed");
        CountDownLatch walkerInterrupted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Run run = new Run();
        // The walker is slow to wind up after the cancellation's interrupt: the owner waits for it.
        run.start(() -> {
            try {
                new CountDownLatch(1).await();
                throw new AssertionError("the walker was released without an interrupt");
            } catch (InterruptedException e) {
                walkerInterrupted.countDown();
                assertTrue(release.await(10, TimeUnit.SECONDS), "the test never released the walker");
                throw e;
            }
        }, (key, prior) -> () -> {
            if (key.segment() == 0) {
                throw failure;
            }
            return null; // job 1, if it starts at all, ends well at once
        });
        assertTrue(walkerInterrupted.await(5, TimeUnit.SECONDS), "the failure did not interrupt the walker");
        await("the owner waits for the walker").atMost(Duration.ofSeconds(5))
                .until(() -> run.owner.getState() == Thread.State.WAITING);

        run.owner.interrupt();
        // The owner took the interrupt (its wait threw, clearing the flag) and waits for the walker again.
        await("the owner takes the interrupt and waits on").atMost(Duration.ofSeconds(5))
                .until(() -> !run.owner.isInterrupted() && run.owner.getState() == Thread.State.WAITING);
        assertFalse(run.outcome.isDone(), "run ended while the walker was running");
        release.countDown();

        assertSame(failure, run.result("after the walker wound up").orElse(null),
                "the failure that cancelled the scope, not an InterruptedException and not nothing");
        assertTrue(run.ownerInterruptedWhenRunEnded, "the owner's interrupt was swallowed");
        assertEquals(List.of(), run.aliveWhenRunEnded, "threads of the scope alive the moment run ended");
    }

    @Test
    void aForkAfterTheScopeWasCancelledStartsNothing() throws Exception {
        IllegalStateException failure = new IllegalStateException("job 0 failed");
        AtomicReference<Thread> jobZero = new AtomicReference<>();
        AtomicBoolean jobOneRan = new AtomicBoolean();
        Run run = new Run();
        run.start(() -> blockUntilInterrupted(new CountDownLatch(1)), (key, prior) -> {
            if (key.segment() == 0) {
                return () -> {
                    jobZero.set(Thread.currentThread());
                    throw failure; // cancels the scope before the owner forks job 1
                };
            }
            // On the owner, between the forks of one batch: job 0's thread has ended, so it has cancelled the scope
            // (its task's end cancels before it ends), and the fork of this job comes after the cancellation.
            await("job 0 ends").atMost(Duration.ofSeconds(5))
                    .until(() -> jobZero.get() != null && !jobZero.get().isAlive());
            return () -> {
                jobOneRan.set(true);
                return null;
            };
        });

        assertSame(failure, run.result("after job 0 failed").orElse(null));
        assertFalse(jobOneRan.get(), "a job forked after the scope was cancelled ran");
        assertEquals(2, run.threads.size(), "threads made (the walker and job 0 only): " + run.threads);
        assertEquals(List.of(), run.aliveWhenRunEnded, "threads of the scope alive the moment run ended");
    }

    @Test
    void aFailureThatComesWhileTheFirstStillCancelsTheScopeDoesNotReplaceIt() throws Exception {
        IllegalStateException first = new IllegalStateException("job 0 failed first");
        IllegalStateException second = new IllegalStateException("job 1 failed second");
        CountDownLatch jobOneStarted = new CountDownLatch(1);
        CountDownLatch jobOneMayFail = new CountDownLatch(1);
        AtomicReference<Thread> jobOne = new AtomicReference<>();
        AtomicReference<String> hookProblem = new AtomicReference<>();
        Run run = new Run();
        // Runs inside the first failure's cancellation (the scheduler's stop comes first in it, before the scope is
        // marked cancelled): job 1 fails there, and has ended before the cancellation goes on.
        run.scheduler.whenStopped(() -> {
            jobOneMayFail.countDown();
            try {
                if (!jobOne.get().join(Duration.ofSeconds(5))) {
                    hookProblem.set("job 1 did not end within 5 s");
                }
            } catch (InterruptedException e) {
                hookProblem.set("the thread that cancels was interrupted");
            }
        });
        run.start(() -> blockUntilInterrupted(new CountDownLatch(1)), (key, prior) -> () -> {
            if (key.segment() == 0) {
                assertTrue(jobOneStarted.await(5, TimeUnit.SECONDS), "job 1 never started");
                throw first;
            }
            jobOne.set(Thread.currentThread());
            jobOneStarted.countDown();
            assertTrue(jobOneMayFail.await(5, TimeUnit.SECONDS), "job 0's cancellation never came");
            throw second;
        });

        Optional<Throwable> result = run.result("after both jobs failed");

        assertSame(first, result.orElse(null), "run returned " + result + ", not the first failure");
        assertNull(hookProblem.get());
        assertEquals(List.of(), run.aliveWhenRunEnded, "threads of the scope alive the moment run ended");
    }
}
