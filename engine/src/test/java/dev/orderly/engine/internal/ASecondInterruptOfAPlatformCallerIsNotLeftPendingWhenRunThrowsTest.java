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
 * Regression: a platform caller interrupted while its request launched, and interrupted again while the request's
 * owner (a virtual thread the caller waits for) was winding up, got {@code InterruptedException} from
 * {@link StructuredRequestScope#run} with its interrupt still set: the caller's {@code StructuredTaskScope.close}
 * waits on through an interrupt and ends with it set, and {@code run} then threw without taking it. A method that
 * throws {@code InterruptedException} clears the status ({@link ThreadsRequestScope}, through {@link VirtualOwner},
 * does: its join throws and clears it).
 *
 * <p>The second interrupt is placed deterministically: the scheduler's stop hook runs on the owner, which stops the
 * scheduler when the caller's first interrupt reaches it, that is once the caller waits for the owner to end, and
 * interrupts the caller from there.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ASecondInterruptOfAPlatformCallerIsNotLeftPendingWhenRunThrowsTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 10, 1, 2);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.orderly.engine.internal.RequestScopeRulesTest#scopes")
    void runThrowsWithTheInterruptCleared(String name, RequestScope.Factory factory) throws Exception {
        Scheduler scheduler = new Scheduler(PLAN, 4);
        ConcurrentLinkedQueue<Thread> threads = new ConcurrentLinkedQueue<>();
        RequestScope scope = factory.open("second-interrupt-platform", scheduler, threads::add);
        CountDownLatch jobsStarted = new CountDownLatch(2);
        AtomicReference<Thread> caller = new AtomicReference<>();
        AtomicReference<String> hookProblem = new AtomicReference<>();
        scheduler.whenStopped(() -> {
            if (Thread.currentThread() == caller.get() || !Thread.currentThread().isVirtual()) {
                hookProblem.set("the stop ran on " + Thread.currentThread() + ", not on the owner");
                return;
            }
            caller.get().interrupt(); // the caller's second interrupt, while it waits for the owner to end
        });
        RunOnACaller run = new RunOnACaller(Thread.ofPlatform().name("second-interrupt-caller"), scope, () -> {
            new CountDownLatch(1).await();
            return null;
        }, (key, prior) -> () -> {
            jobsStarted.countDown();
            new CountDownLatch(1).await();
            return null;
        });
        caller.set(run.thread());
        caller.get().start();
        assertTrue(jobsStarted.await(5, TimeUnit.SECONDS), "the owner did not start two jobs");
        await().atMost(Duration.ofSeconds(5)).until(() -> caller.get().getState() == Thread.State.WAITING);

        caller.get().interrupt(); // the caller's first interrupt

        run.assertThrewInterruptedExceptionWithTheInterruptCleared(threads, "the platform caller");
        assertNull(hookProblem.get());
    }
}
