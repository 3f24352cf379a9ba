package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression (a86c2c7, seen only as a failure of ASecondInterruptOfAPlatformCallerIsNotLeftPendingWhenRunThrowsTest's
 * threads pass in CI): a platform caller interrupted after its request's owner had ended by
 * {@code InterruptedException}, but before the caller waited for it, got that {@code InterruptedException} from
 * {@link VirtualOwner#run} with its interrupt still set ({@code join} of an ended thread returns normally and leaves
 * the flag as it is). A method that throws {@code InterruptedException} leaves no interrupt behind.
 *
 * <p>The interrupt is placed there deterministically: the owner's thread factory makes a thread whose {@code start}
 * returns only once the thread has ended, and interrupts the caller then. (The engine's factories make virtual
 * threads; the branch under test does not depend on it.)
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnInterruptAsTheOwnerEndsByInterruptIsNotLeftOnThePlatformCallerTest {

    @Test
    void theCallerThrowsTheOwnersInterruptWithItsFlagCleared() throws Exception {
        InterruptedException cancelled = new InterruptedException("the request was cancelled");
        ThreadFactory endedBeforeStartReturns = body -> new Thread(body, "owner-ended-before-start-returns") {
            @Override
            public void start() {
                super.start();
                try {
                    join(10_000);
                } catch (InterruptedException e) {
                    throw new AssertionError("the caller was interrupted before the owner ended", e);
                }
                // the interrupt that comes once the owner has ended, before the caller waits for it
                Thread.currentThread().interrupt();
            }
        };
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        Thread caller = Thread.ofPlatform().name("platform-caller").start(() -> {
            try {
                VirtualOwner.run(endedBeforeStartReturns, () -> {
                    throw cancelled;
                });
            } catch (Throwable t) {
                thrown.set(t);
            }
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        caller.join(10_000);

        assertFalse(caller.isAlive(), "the caller did not return");
        assertSame(cancelled, thrown.get());
        assertFalse(interruptedAfter.get(), "the caller threw InterruptedException with its interrupt still set");
    }
}
