package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: the request's end events ({@code onRequestDone}, {@code onRequestFailed}) run on the thread that called
 * {@code run}, which the engine never interrupts. A listener written where checked exceptions are not checked (Kotlin,
 * Groovy, {@code @SneakyThrows}) that threw an {@code InterruptedException} of its own there had the caller's interrupt
 * set by the listener guard, as if it answered a cancellation (the request counts as stopping by then): {@code run}
 * returned with the caller's thread interrupted, nobody having interrupted it, and the caller's next wait threw. The
 * guide says such an exception, with nothing sent, is only logged.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AListenersOwnInterruptedExceptionAtTheEndLeavesTheCallerAloneTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 3, 1, 2);

    @Test
    void onRequestDoneLeavesTheCallerUninterrupted() throws Exception {
        RequestListener listener = new RequestListener() {
            @Override
            public void onRequestDone(RequestResult result) {
                sneakyThrow(new InterruptedException("the listener's own"));
            }
        };
        InMemoryOutputStore store = new InMemoryOutputStore();
        try {
            RequestResult result = Orderly.engine(Fixtures.fast()).run(Request.of(PLAN,
                    new ScriptedTier2(PLAN, store::write, job -> Script.succeed()), store, (segment, output) -> { })
                    .withId("r-done").withListener(listener));

            assertEquals(3, result.segmentsDelivered());
            assertFalse(Thread.currentThread().isInterrupted(), "the caller's thread is interrupted after run");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void onRequestFailedLeavesTheCallerUninterrupted() {
        RequestListener listener = new RequestListener() {
            @Override
            public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
                sneakyThrow(new InterruptedException("the listener's own"));
            }
        };
        InMemoryOutputStore store = new InMemoryOutputStore();
        Throwable thrown = null;
        boolean interruptedAfter;
        try {
            Orderly.engine(Fixtures.fast()).run(Request.of(PLAN,
                    new ScriptedTier2(PLAN, store::write, job -> Script.succeed()), store, (segment, output) -> {
                        throw new IllegalStateException("the client's");
                    }).withId("r-failed").withListener(listener));
        } catch (Throwable t) {
            thrown = t;
        } finally {
            interruptedAfter = Thread.interrupted();
        }
        assertInstanceOf(RequestFailedException.class, thrown);
        assertFalse(interruptedAfter, "the caller's thread is interrupted after run");
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneakyThrow(Throwable t) throws E {
        throw (E) t;
    }
}
