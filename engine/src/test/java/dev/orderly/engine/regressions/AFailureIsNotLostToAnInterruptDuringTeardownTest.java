package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a request that has already failed (a unit failed fatally, or threw a {@code VirtualMachineError}) waits,
 * before {@code run} throws, for every thread of the request to end. A caller interrupted in that wait got an
 * {@code InterruptedException} "cancelled by interrupt" instead of the failure: the unit's failure (and a
 * {@code StackOverflowError} that the guide says {@code run} throws as itself) was lost, and the listener heard
 * {@code onRequestCancelled} for a request that had failed. The failure was decided before the interrupt came: the
 * caller gets it, with its interrupt flag set again.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AFailureIsNotLostToAnInterruptDuringTeardownTest {

    /** Two workers: segment 0's job fails, segment 1's is on its tier2, answering no interrupt for a while. */
    private static final RequestPlan PLAN = new RequestPlan(0, 2, 1, 2);

    @Test
    void aFatalFailureReachesTheInterruptedCaller() throws Exception {
        Outcome outcome = runAndInterruptDuringTeardown(
                () -> { throw Tier2Exception.fatal("bad module", null); });

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, outcome.thrown,
                "what run threw: " + outcome.thrown);
        assertEquals(Optional.of(new JobKey(0, 0)), e.key(), e.getMessage());
        assertTrue(e.getMessage().contains("failed fatally"), e.getMessage());
        assertTrue(outcome.interruptedAfter, "the caller's interrupt flag after run");
        assertEquals(List.of("failed"), outcome.ends, "how the listener heard the request end");
    }

    @Test
    void aVirtualMachineErrorReachesTheInterruptedCallerAsItself() throws Exception {
        Outcome outcome = runAndInterruptDuringTeardown(() -> { throw new StackOverflowError("deep"); });

        assertInstanceOf(StackOverflowError.class, outcome.thrown, "what run threw: " + outcome.thrown);
        assertTrue(outcome.interruptedAfter, "the caller's interrupt flag after run");
        assertEquals(List.of("failed"), outcome.ends, "how the listener heard the request end");
    }

    @FunctionalInterface
    private interface Failure {
        void fail() throws Tier2Exception;
    }

    private record Outcome(Throwable thrown, boolean interruptedAfter, List<String> ends) {
    }

    private static Outcome runAndInterruptDuringTeardown(Failure failure) throws Exception {
        CountDownLatch segment1OnItsTier2 = new CountDownLatch(1);
        CountDownLatch segment1Interrupted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> ends = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onRequestDone(RequestResult result) {
                ends.add("done");
            }

            @Override
            public void onRequestFailed(RequestResult partial, RequestFailedException e) {
                ends.add("failed");
            }

            @Override
            public void onRequestCancelled(RequestResult partial) {
                ends.add("cancelled");
            }
        };
        Request request = Request.of(PLAN, job -> new Tier2Call() {
            @Override
            public void await() throws Tier2Exception, InterruptedException {
                if (job.key().segment() == 0) {
                    if (!segment1OnItsTier2.await(10, TimeUnit.SECONDS)) {
                        throw new AssertionError("segment 1 never got on its tier2");
                    }
                    failure.fail();
                    return;
                }
                segment1OnItsTier2.countDown();
                // A tier2 call that answers no interrupt until it is released (a blocking socket read, say).
                boolean interrupted = false;
                while (true) {
                    try {
                        release.await();
                        break;
                    } catch (InterruptedException e) {
                        // The request's cancellation: it has failed, and waits for this thread to end.
                        interrupted = true;
                        segment1Interrupted.countDown();
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                throw Tier2Exception.retryable("call cancelled", null);
            }
        }, new InMemoryOutputStore(), (segment, output) -> { }).withId("r-teardown").withListener(listener);

        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        // A platform caller, as most embedders' are.
        Thread caller = Thread.ofPlatform().name("caller").start(() -> {
            try {
                Orderly.engine(Fixtures.fast()).run(request);
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                interruptedAfter.set(Thread.interrupted());
            }
        });
        try {
            // The request failed and is being torn down: segment 1's job was interrupted, and waits on its tier2.
            assertTrue(segment1Interrupted.await(10, TimeUnit.SECONDS), "segment 1's job was never interrupted");
            caller.interrupt();
        } finally {
            release.countDown();
            caller.join(TimeUnit.SECONDS.toMillis(20));
        }
        assertTrue(!caller.isAlive(), "run never returned");
        return new Outcome(thrown.get(), interruptedAfter.get(), ends);
    }
}
