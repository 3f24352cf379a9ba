package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Engine.run} promises that a {@link VirtualMachineError} thrown anywhere in the request is thrown as itself
 * once everything is cancelled. One thrown by a job while the request was already being stopped (here the call of a
 * job the stop closed answers with a {@code StackOverflowError}, as a call that runs out of stack or heap in its
 * teardown would) came after the scope's cancellation, which reports nothing more: it was dropped, and {@code run}
 * threw the ordinary failure as if the VM were fine.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AVirtualMachineErrorAfterTheStopIsNotLostTest {

    @Test
    void anErrorOfTheVmFromACallTheStopClosedIsThrownAsItself() throws Throwable {
        Engine engine = Orderly.engine(Fixtures.fast());
        CountDownLatch awaiting = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        CountDownLatch failNow = new CountDownLatch(1);
        Tier2Client tier2 = job -> {
            if (job.key().segment() == 0) {
                return new Tier2Call() {
                    @Override
                    public void await() {
                        awaiting.countDown();
                        try {
                            closed.await();
                        } catch (InterruptedException e) {
                            // the stop's interrupt: ends the wait as the close does
                        }
                        throw new StackOverflowError("in the call's teardown");
                    }

                    @Override
                    public void close() {
                        closed.countDown();
                    }
                };
            }
            return () -> {
                failNow.await();
                throw Tier2Exception.fatal("module panicked", null);
            };
        };
        Background run = new Background(engine, Request.of(new RequestPlan(0, 2, 1, 2), tier2,
                new InMemoryOutputStore(), new RecordingClient()).withId("r-teardown-error"));
        try {
            assertTrue(awaiting.await(10, TimeUnit.SECONDS), "segment 0's call was never awaited");
            failNow.countDown();
            Throwable thrown = run.failure(20);
            assertInstanceOf(StackOverflowError.class, thrown, "what run threw: " + thrown);
        } finally {
            closed.countDown();
            run.interrupt();
        }
    }
}
