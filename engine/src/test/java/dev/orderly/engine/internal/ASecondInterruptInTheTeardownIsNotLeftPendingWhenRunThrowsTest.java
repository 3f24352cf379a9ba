package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.RequestPlan;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Regression: a caller (a virtual thread, so the owner itself) interrupted while the request launched, and interrupted
 * again while the request was winding up, got {@code InterruptedException} from {@link ThreadsRequestScope#run} with
 * its interrupt still set: the owner's last look at its interrupt ({@code interrupted || Thread.interrupted()}) was
 * skipped once the first interrupt had been seen. A method that throws {@code InterruptedException} clears the status
 * ({@link StructuredRequestScope} does, taking {@code Thread.interrupted()} unconditionally); left set, the engine's
 * {@code onRequestCancelled} and whatever the caller does in its catch met a stale interrupt at their first wait.
 *
 * <p>The second interrupt is placed deterministically: the scheduler's stop hook runs on the owner (the first to stop,
 * answering the first interrupt), waits until every other thread of the request has ended on its own, and then
 * interrupts the owner, as a second interrupt arriving at that instant would.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ASecondInterruptInTheTeardownIsNotLeftPendingWhenRunThrowsTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 10, 1, 2);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.orderly.engine.internal.RequestScopeRulesTest#scopes")
    void runThrowsWithTheInterruptCleared(String name, RequestScope.Factory factory) throws Exception {
        Scheduler scheduler = new Scheduler(PLAN, 4);
        ConcurrentLinkedQueue<Thread> threads = new ConcurrentLinkedQueue<>();
        RequestScope scope = factory.open("second-interrupt", scheduler, threads::add);
        CountDownLatch stopped = new CountDownLatch(1);
        CountDownLatch jobsStarted = new CountDownLatch(2);
        AtomicReference<Thread> owner = new AtomicReference<>();
        AtomicReference<String> hookProblem = new AtomicReference<>();
        scheduler.whenStopped(() -> {
            if (Thread.currentThread() != owner.get()) {
                hookProblem.set("the stop ran on " + Thread.currentThread() + ", not on the owner");
                return;
            }
            stopped.countDown(); // the walker and the jobs end on their own, uninterrupted
            try {
                await("every thread of the request ends").atMost(Duration.ofSeconds(5))
                        .until(() -> threads.stream().noneMatch(Thread::isAlive));
            } catch (RuntimeException e) {
                hookProblem.set(e.toString());
            }
            Thread.currentThread().interrupt(); // the caller's second interrupt
        });
        RunOnACaller run = new RunOnACaller(Thread.ofVirtual(), scope, () -> {
            stopped.await(10, TimeUnit.SECONDS);
            return null;
        }, (key, prior) -> () -> {
            jobsStarted.countDown();
            stopped.await(10, TimeUnit.SECONDS);
            return null;
        });
        owner.set(run.thread());
        owner.get().start();
        assertTrue(jobsStarted.await(5, TimeUnit.SECONDS), "the owner did not start two jobs");
        // Both workers are taken: the owner waits for one to free up.
        await().atMost(Duration.ofSeconds(5)).until(() -> owner.get().getState() == Thread.State.WAITING);

        owner.get().interrupt(); // the caller's first interrupt

        run.assertThrewInterruptedExceptionWithTheInterruptCleared(threads, "the caller");
        assertNull(hookProblem.get());
    }
}
