package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A request scope's {@code run} on a caller thread of the test's choosing, seen as its caller sees it: what run
 * returned or threw, and whether the caller's interrupt was still set as run ended. For the tests that interrupt a
 * caller twice and check that {@code InterruptedException} comes with the interrupt cleared, as a method that throws
 * it promises.
 */
final class RunOnACaller {

    private final CompletableFuture<Throwable> thrown = new CompletableFuture<>();
    private final AtomicReference<Boolean> interruptedWhenRunEnded = new AtomicReference<>();
    private final Thread caller;

    /** Makes the caller, not started: the tests hand it to their hooks before it runs. */
    RunOnACaller(Thread.Builder builder, RequestScope scope, Callable<Void> walker, RequestScope.Jobs jobs) {
        caller = builder.unstarted(() -> {
            try {
                thrown.complete(new AssertionError("run returned " + scope.run(walker, jobs)));
            } catch (Throwable t) {
                thrown.complete(t);
            } finally {
                interruptedWhenRunEnded.set(Thread.currentThread().isInterrupted());
            }
        });
    }

    Thread thread() {
        return caller;
    }

    /**
     * Waits (bounded) for run to end, and checks that it threw {@code InterruptedException} with the caller's interrupt
     * cleared, and that no thread of the request outlived it.
     */
    void assertThrewInterruptedExceptionWithTheInterruptCleared(Collection<Thread> threadsOfTheRequest, String who)
            throws InterruptedException, TimeoutException {
        Throwable outcome;
        try {
            outcome = thrown.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        }
        assertTrue(caller.join(Duration.ofSeconds(5)), "the caller did not end");
        assertInstanceOf(InterruptedException.class, outcome);
        assertEquals(List.of(), threadsOfTheRequest.stream().filter(Thread::isAlive).toList());
        assertFalse(interruptedWhenRunEnded.get(), "run threw InterruptedException and left " + who + "'s interrupt set");
    }
}
