package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.RequestResult;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.MDC;

/**
 * A request's owner on a virtual thread of its own when the caller is a platform thread: the caller gets what the
 * owner returned or threw, passes its interrupt on, and never returns before the owner has ended. The callers here
 * are platform threads (the test's own, or one it starts so that it can interrupt it).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class VirtualOwnerTest {

    private static final ThreadFactory THREADS = RequestScope.threads("orderly-test", thread -> { });
    private static final RequestResult RESULT = new RequestResult(3, 3, 3, 0, 0, 0, 0, Duration.ofMillis(1),
            Duration.ofMillis(2));

    /** Runs {@code call} on a platform thread of its own; the future ends with what the call returned or threw. */
    private static CompletableFuture<RequestResult> onPlatformThread(VirtualOwner.Body<RequestResult> body, List<Thread> observed,
            AtomicReference<Thread> caller) {
        CompletableFuture<RequestResult> outcome = new CompletableFuture<>();
        Thread thread = Thread.ofPlatform().name("virtual-owner-test-caller").unstarted(() -> {
            try {
                outcome.complete(VirtualOwner.run(RequestScope.threads("orderly-test", observed::add), body));
            } catch (Throwable t) {
                outcome.completeExceptionally(t);
            }
        });
        caller.set(thread);
        thread.start();
        return outcome;
    }

    @Test
    void aPlatformCallersRequestIsOwnedByAVirtualThreadItWasToldOf() throws Exception {
        List<Thread> observed = new ArrayList<>();
        AtomicReference<Thread> owner = new AtomicReference<>();

        RequestResult result = VirtualOwner.run(RequestScope.threads("orderly-test", observed::add), () -> {
            owner.set(Thread.currentThread());
            return RESULT;
        });

        assertSame(RESULT, result);
        assertTrue(owner.get().isVirtual(), "the owner is a virtual thread");
        assertNotSame(Thread.currentThread(), owner.get());
        assertEquals("orderly-test", owner.get().getName());
        assertEquals(List.of(owner.get()), observed, "the observer is told of the owner");
        assertFalse(owner.get().isAlive(), "the owner has ended when run returns");
    }

    @Test
    void aVirtualCallerOwnsItsRequestItself() throws Exception {
        List<Thread> observed = new ArrayList<>();
        CompletableFuture<Thread> owner = new CompletableFuture<>();
        CompletableFuture<Thread> caller = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            caller.complete(Thread.currentThread());
            try {
                VirtualOwner.run(RequestScope.threads("orderly-test", observed::add), () -> {
                    owner.complete(Thread.currentThread());
                    return RESULT;
                });
            } catch (Exception e) {
                owner.completeExceptionally(e);
            }
        });

        assertSame(caller.get(5, TimeUnit.SECONDS), owner.get(5, TimeUnit.SECONDS));
        assertEquals(List.of(), observed, "no thread is made");
    }

    @Test
    void theOwnersFailuresAreThrownUnchanged() {
        IllegalStateException broken = new IllegalStateException("broken");
        AssertionError error = new AssertionError("an Error");

        assertSame(broken, assertThrows(IllegalStateException.class, () -> VirtualOwner.run(THREADS, () -> {
                    throw broken;
                })));
        assertSame(error, assertThrows(AssertionError.class, () -> VirtualOwner.run(THREADS, () -> {
                    throw error;
                })));
    }

    @Test
    void aCheckedExceptionTheOwnerCouldNotDeclareIsWrappedNamingIt() {
        IOException sneaky = new IOException("thrown where the compiler could not see it");

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> VirtualOwner.run(THREADS, () -> {
                    throw VirtualOwnerTest.<RuntimeException>sneakily(sneaky);
                }));

        assertSame(sneaky, e.getCause());
        assertEquals("the request's owner threw " + sneaky, e.getMessage());
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneakily(Throwable t) throws T {
        throw (T) t;
    }

    @Test
    void anInterruptOfTheCallerIsPassedOnAndTheCallerWaitsForTheOwnerToEnd() throws Exception {
        CountDownLatch ownerWaits = new CountDownLatch(1);
        CountDownLatch ownerMayEnd = new CountDownLatch(1);
        AtomicReference<Thread> owner = new AtomicReference<>();
        InterruptedException cancelled = new InterruptedException("request cancelled by interrupt");
        AtomicReference<Thread> caller = new AtomicReference<>();
        CompletableFuture<RequestResult> outcome = onPlatformThread(() -> {
            owner.set(Thread.currentThread());
            ownerWaits.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                // The request's scope cancels its threads here; the caller must wait for that to finish.
                ownerMayEnd.await(10, TimeUnit.SECONDS);
                throw cancelled;
            }
            return RESULT;
        }, new ArrayList<>(), caller);
        assertTrue(ownerWaits.await(5, TimeUnit.SECONDS));

        caller.get().interrupt();

        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                .until(() -> !outcome.isDone() && owner.get().isAlive());
        ownerMayEnd.countDown();
        Throwable thrown = assertThrows(Exception.class, () -> outcome.get(5, TimeUnit.SECONDS)).getCause();
        assertSame(cancelled, thrown);
        assertFalse(owner.get().isAlive(), "the owner had ended when the caller threw");
    }

    @Test
    void anInterruptThatComesAsTheRequestEndsWellStaysWithTheCaller() throws Exception {
        CountDownLatch ownerWaits = new CountDownLatch(1);
        CountDownLatch interruptSent = new CountDownLatch(1);
        CountDownLatch ownerInterrupted = new CountDownLatch(1);
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        CompletableFuture<RequestResult> outcome = new CompletableFuture<>();
        Thread thread = Thread.ofPlatform().unstarted(() -> {
            try {
                outcome.complete(VirtualOwner.run(THREADS, () -> {
                    ownerWaits.countDown();
                    // An owner that has finished its request and no longer looks at interrupts.
                    boolean sent = false;
                    while (!sent) {
                        try {
                            sent = interruptSent.await(10, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            // The request is done: the interrupt the caller passed on is the caller's again.
                            ownerInterrupted.countDown();
                        }
                    }
                    return RESULT;
                }));
                interruptedAfter.set(Thread.currentThread().isInterrupted());
            } catch (Throwable t) {
                outcome.completeExceptionally(t);
            }
        });
        thread.start();
        assertTrue(ownerWaits.await(5, TimeUnit.SECONDS));

        thread.interrupt();
        assertTrue(ownerInterrupted.await(5, TimeUnit.SECONDS), "the caller passed its interrupt on to the owner");
        interruptSent.countDown();

        assertSame(RESULT, outcome.get(5, TimeUnit.SECONDS));
        thread.join(5_000);
        assertTrue(interruptedAfter.get(), "the caller's interrupt is kept set after a request that ended well");
    }

    @Test
    void theOwnerLogsUnderTheCallersMdc() throws Exception {
        MDC.put("trace", "t-42");
        try {
            AtomicReference<String> seen = new AtomicReference<>();
            // A thread that inherits nothing from its maker: only the owner's own copy can carry the caller's MDC.
            ThreadFactory inheritingNothing = Thread.ofVirtual().inheritInheritableThreadLocals(false).factory();
            VirtualOwner.run(inheritingNothing, () -> {
                seen.set(MDC.get("trace"));
                return RESULT;
            });
            assertEquals(LogContext.KEPT ? "t-42" : null, seen.get());
        } finally {
            MDC.remove("trace");
        }
    }

    @Test
    void aFailureOfTheOwnerIsNotMistakenForAnInterrupt() throws Exception {
        // The caller was never interrupted: it must not come back with its interrupt flag set.
        assertThrows(IllegalStateException.class, () -> VirtualOwner.run(THREADS, () -> {
            throw new IllegalStateException("broken");
        }));
        assertFalse(Thread.currentThread().isInterrupted());
        assertInstanceOf(RequestResult.class, VirtualOwner.run(THREADS, () -> RESULT));
        assertFalse(Thread.interrupted());
    }
}
