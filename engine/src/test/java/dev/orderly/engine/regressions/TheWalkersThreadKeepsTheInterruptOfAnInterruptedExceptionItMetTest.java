package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The output walker's thread keeps an interrupt it met (OutputWalker's javadoc: "the interrupt kept", "the walker's
 * thread keeps it"): when the client's {@code accept}, or the store's {@code read}, throws an
 * {@code InterruptedException} of its own, and when a listener left the interrupt set before the walker waits for a
 * re-run. Throwing the exception cleared the flag, so the walker must set it again; the embedder's code that captured
 * the thread (a thread dump, a supervisor) sees it set once {@code run} has ended. (Under the structured scope the
 * walker's failure cancels the scope from the walker's own thread, which {@code StructuredTaskScope} does not
 * interrupt: only the walker's own restore sets the flag. Under the threads scope the owner's cancellation interrupts
 * the walker too, so these pass there either way.)
 *
 * <p>Kills the surviving mutants of round 62: {@code OutputWalker.accept}'s {@code instanceof InterruptedException}
 * negated and its {@code Thread.interrupt} removed; {@code callStore}'s, the same two; {@code awaitOutput}'s
 * {@code Thread.interrupt} removed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheWalkersThreadKeepsTheInterruptOfAnInterruptedExceptionItMetTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 3, 1, 2);

    @Test
    void aClientsOwnInterruptedExceptionLeavesTheWalkersThreadInterrupted() {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        AtomicReference<Thread> walker = new AtomicReference<>();

        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(PLAN, tier2, store, (segment, output) -> {
                    walker.set(Thread.currentThread());
                    throw new InterruptedException("the client's own hand-off was interrupted");
                }).withId("r-walker-client")).failure(10);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(Optional.of(new JobKey(0, 0)), e.key(), e.getMessage());
        assertInstanceOf(InterruptedException.class, e.getCause());
        assertNotNull(walker.get(), "the client was never called");
        assertTrue(walker.get().isInterrupted(), "the walker's thread, after run, lost the interrupt of the client's"
                + " InterruptedException");
    }

    @Test
    void aStoresOwnInterruptedExceptionLeavesTheWalkersThreadInterrupted() {
        InMemoryOutputStore written = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, written::write, job -> Script.succeed());
        AtomicReference<Thread> walker = new AtomicReference<>();
        // A store written where checked exceptions are not checked (Kotlin): its read's wait was interrupted by code
        // of the embedder's, not by a cancellation of the request.
        dev.orderly.api.OutputStore store = segment -> {
            walker.set(Thread.currentThread());
            throw Sneaky.<RuntimeException>thrown(new InterruptedException("the store's own wait was interrupted"));
        };

        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(PLAN, tier2, store, (segment, output) -> { }).withId("r-walker-store")).failure(10);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(Optional.of(new JobKey(0, 0)), e.key(), e.getMessage());
        assertEquals("segment 0 stage 0 output could not be read, giving up: java.lang.InterruptedException: the"
                + " store's own wait was interrupted", e.getMessage());
        assertInstanceOf(InterruptedException.class, e.getCause());
        assertNotNull(walker.get(), "the store was never read");
        assertTrue(walker.get().isInterrupted(), "the walker's thread, after run, lost the interrupt of the store's"
                + " InterruptedException");
    }

    @Test
    void anInterruptLeftByTheRerunListenerEndsTheWaitForTheRerunAndStaysSet() {
        InMemoryOutputStore store = new InMemoryOutputStore();
        AtomicBoolean lost = new AtomicBoolean();
        // The first job of segment 0 succeeds without writing its output: the walker re-runs it and waits for it.
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write,
                job -> job.key().segment() == 0 && lost.compareAndSet(false, true) ? Script.loseOutput()
                        : Script.succeed());
        AtomicReference<Thread> walker = new AtomicReference<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onRerun(JobKey key) {
                // A listener that restored an interrupt of its own it could not handle.
                walker.set(Thread.currentThread());
                Thread.currentThread().interrupt();
            }
        };

        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(PLAN, tier2, store, (segment, output) -> { }).withId("r-walker-rerun")
                        .withListener(listener)).failure(10);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(Optional.of(new JobKey(0, 0)), e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith("segment 0 stage 0 output could not be awaited: the output walker's"
                + " thread was interrupted"), e.getMessage());
        assertInstanceOf(InterruptedException.class, e.getCause(), "the wait's InterruptedException as the cause");
        assertNotNull(walker.get(), "the segment was never re-run");
        assertTrue(walker.get().isInterrupted(), "the walker's thread, after run, lost the interrupt its wait met");
    }

    /** Throws a checked exception where the compiler does not see it, as Kotlin code does. */
    static final class Sneaky {
        @SuppressWarnings("unchecked")
        static <T extends Throwable> T thrown(Throwable t) throws T {
            throw (T) t;
        }
    }
}
