package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a platform thread interrupted while it waits in {@code run} got, with the {@code StructuredTaskScope}
 * request scope, the JDK's bare {@code InterruptedException} (no message) from the scope's {@code join}, while with
 * the threads scope it got "request orderly-ID cancelled by interrupt". Both scopes must tell the caller the same
 * thing: which request was cancelled, and that an interrupt cancelled it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class APlatformCallerInterruptedInRunIsToldWhichRequestTest {

    @Test
    void theInterruptedExceptionNamesTheRequest() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch onItsTier2 = new CountDownLatch(1);
        Request request = Request.of(new RequestPlan(0, 1, 1, 1), job -> new Tier2Call() {
            @Override
            public void await() throws InterruptedException {
                onItsTier2.countDown();
                new CountDownLatch(1).await(); // a long job that answers interrupts
            }
        }, store, (segment, output) -> { }).withId("r-interrupted");

        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        Thread caller = Thread.ofPlatform().name("caller").start(() -> {
            try {
                Orderly.engine(Fixtures.fast()).run(request);
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                interruptedAfter.set(Thread.currentThread().isInterrupted());
            }
        });
        try {
            assertTrue(onItsTier2.await(10, TimeUnit.SECONDS), "the job never got on its tier2");
            caller.interrupt();
        } finally {
            caller.join(TimeUnit.SECONDS.toMillis(20));
        }
        assertFalse(caller.isAlive(), "run never returned");
        assertNotNull(thrown.get(), "run returned, though its caller was interrupted");
        InterruptedException e = assertInstanceOf(InterruptedException.class, thrown.get());
        assertNotNull(e.getMessage(), "the InterruptedException says nothing of what was cancelled");
        assertTrue(e.getMessage().contains("r-interrupted") && e.getMessage().contains("interrupt"),
                "the message names the request and the interrupt: " + e.getMessage());
        assertFalse(interruptedAfter.get(), "the interrupt flag after InterruptedException was thrown");
    }
}
