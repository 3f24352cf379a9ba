package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.RequestPlan;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Regression: the owner of a platform caller's request broke (a RuntimeException or Error of its own, here from
 * making a job's task) while the caller's interrupt was being passed on to it, and {@link StructuredRequestScope#run}
 * threw "request ... cancelled by interrupt" instead: a subtask that ends after its scope was cancelled (the caller's
 * {@code close}, on the interrupt, cancels it) is not recorded by the JDK, so the owner's exception was dropped.
 * {@link ThreadsRequestScope}, through {@link VirtualOwner}, throws the owner's exception unchanged and keeps the
 * caller's interrupt set, as the rules say: an Error or RuntimeException of the owner comes out as itself.
 *
 * <p>Deterministic: the owner interrupts its caller, waits until the caller passes the interrupt on to it (which the
 * caller does only once its wait for the owner was interrupted), and only then breaks.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnOwnerThatBreaksAsItsPlatformCallerIsInterruptedIsNotReportedAsACancelTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 10, 1, 2);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.orderly.engine.internal.RequestScopeRulesTest#scopes")
    void theOwnersExceptionIsThrownUnchangedWithTheInterruptKept(String name, RequestScope.Factory factory)
            throws Exception {
        Scheduler scheduler = new Scheduler(PLAN, 4);
        ConcurrentLinkedQueue<Thread> threads = new ConcurrentLinkedQueue<>();
        RequestScope scope = factory.open("owner-breaks", scheduler, threads::add);
        IllegalStateException broken = new IllegalStateException("the owner broke");
        AtomicReference<Thread> caller = new AtomicReference<>();
        AtomicReference<String> problem = new AtomicReference<>();
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        AtomicReference<Boolean> interruptedWhenRunEnded = new AtomicReference<>();
        caller.set(Thread.ofPlatform().name("owner-breaks-caller").unstarted(() -> {
            try {
                thrown.complete(new AssertionError("run returned " + scope.run(() -> {
                    new CountDownLatch(1).await();
                    return null;
                }, (key, prior) -> {
                    // On the owner, making the first job's task.
                    caller.get().interrupt();
                    try {
                        if (!new CountDownLatch(1).await(10, TimeUnit.SECONDS)) {
                            problem.set("the caller did not pass its interrupt on to the owner");
                        }
                    } catch (InterruptedException e) {
                        // The caller's interrupt reached the owner: the owner breaks now.
                    }
                    throw broken;
                })));
            } catch (Throwable t) {
                thrown.complete(t);
            } finally {
                interruptedWhenRunEnded.set(Thread.currentThread().isInterrupted());
            }
        }));
        caller.get().start();

        Throwable outcome;
        try {
            outcome = thrown.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        }
        caller.get().join(5_000);
        assertNull(problem.get());
        assertSame(broken, outcome, "run did not throw the owner's exception");
        assertEquals(List.of(), threads.stream().filter(Thread::isAlive).toList());
        assertTrue(interruptedWhenRunEnded.get(), "the caller's interrupt is kept set with the owner's failure");
    }
}
