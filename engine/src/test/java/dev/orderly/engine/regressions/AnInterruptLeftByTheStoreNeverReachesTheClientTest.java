package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: an {@code OutputStore} whose {@code read} (or {@code contains}) sets its thread's interrupt again and
 * returns (the usual idiom for an interrupt it can not handle) left that interrupt on the output walker's thread, and
 * the walker went on to call the client with it: a client that then blocks ({@code BlockingQueue.put}) threw
 * {@code InterruptedException}, and the request failed as "the client failed on segment 1", blaming the client for
 * the store's interrupt. An interrupt the client leaves is named before the store is called; one the store leaves now
 * is too, before the client is called.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnInterruptLeftByTheStoreNeverReachesTheClientTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 3, 1, 1);

    @Test
    void aReadThatLeavesTheInterruptIsNamedNotTheClient() {
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        OutputStore store = new OutputStore() {
            @Override
            public Optional<byte[]> read(long segment) throws IOException {
                Optional<byte[]> output = outputs.read(segment);
                if (segment == 1) {
                    Thread.currentThread().interrupt();
                }
                return output;
            }
        };
        List<Long> calledInterrupted = new CopyOnWriteArrayList<>();
        RequestFailedException e = run(Request.of(PLAN, new ScriptedTier2(PLAN, outputs::write,
                job -> Script.succeed()), store, client(calledInterrupted)).withId("r-read"));

        assertEquals(List.of(), calledInterrupted, "segments whose accept began with the thread interrupted");
        assertFalse(e.getMessage().contains("the client failed"), e.getMessage());
        assertTrue(e.getMessage().contains("interrupt"), e.getMessage());
        assertEquals(Optional.of(new JobKey(1, 0)), e.key(), e.getMessage());
        assertEquals(1, e.partialResult().orElseThrow().segmentsDelivered());
    }

    @Test
    void aLookUpThatLeavesTheInterruptIsNamedNotTheClient() {
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        OutputStore store = new OutputStore() {
            @Override
            public Optional<byte[]> read(long segment) throws IOException {
                return outputs.read(segment);
            }

            @Override
            public boolean contains(long segment) throws IOException {
                if (segment == 0) {
                    Thread.currentThread().interrupt();
                }
                return false;
            }
        };
        List<Long> calledInterrupted = new CopyOnWriteArrayList<>();
        RequestFailedException e = run(Request.of(PLAN, new ScriptedTier2(PLAN, outputs::write,
                job -> Script.succeed()), store, client(calledInterrupted)).withId("r-contains").withResume(true));

        assertEquals(List.of(), calledInterrupted, "segments whose accept began with the thread interrupted");
        assertFalse(e.getMessage().contains("the client failed"), e.getMessage());
        assertTrue(e.getMessage().contains("interrupt"), e.getMessage());
        assertEquals(Optional.of(new JobKey(0, 0)), e.key(), e.getMessage());
    }

    /** A client that hands each output on through a queue, as many do: its put throws when its thread is interrupted. */
    private static dev.orderly.api.SegmentConsumer client(List<Long> calledInterrupted) {
        LinkedBlockingQueue<byte[]> handOff = new LinkedBlockingQueue<>();
        return (segment, output) -> {
            if (Thread.currentThread().isInterrupted()) {
                calledInterrupted.add(segment);
            }
            handOff.put(output);
        };
    }

    private static RequestFailedException run(Request request) {
        Throwable thrown;
        try {
            Orderly.engine(Fixtures.fast()).run(request);
            throw new AssertionError("the request ended well, though its store left an interrupt on its thread");
        } catch (Throwable t) {
            thrown = t;
        } finally {
            Thread.interrupted();
        }
        return assertInstanceOf(RequestFailedException.class, thrown);
    }
}
