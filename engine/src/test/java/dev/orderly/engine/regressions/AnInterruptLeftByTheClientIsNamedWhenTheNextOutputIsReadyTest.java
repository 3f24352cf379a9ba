package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.FileOutputStore;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.OutputSink;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a {@code SegmentConsumer} that sets its thread's interrupt again and returns (the usual idiom for an
 * interrupt it can not handle) is named only when the output walker then has to wait for the next output. When that
 * output is ready already (the walker mostly trails its jobs), the interrupt went on into the {@code OutputStore}'s read
 * (a {@code FileOutputStore} then failed the request as a file that "can not be read", ClosedByInterruptException,
 * sending the reader to the disk) or into the client's own next call, which started with its thread interrupted.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnInterruptLeftByTheClientIsNamedWhenTheNextOutputIsReadyTest {

    /** One worker, a look-ahead of 4: while the client is on segment 1, segments 2, 3 and 4 run one after another. */
    private static final RequestPlan PLAN = new RequestPlan(0, 6, 1, 1);
    private static final EngineConfig CONFIG = Fixtures.fast().toBuilder().lookaheadFactor(4).build();

    @Test
    void aFileStoreIsNotBlamedForAnInterruptTheClientLeft(@TempDir Path dir) {
        FileOutputStore store = new FileOutputStore(dir);
        RequestFailedException e = runWithAClientThatLeavesAnInterruptAtSegment1(store, (segment, output) -> {
            try {
                store.write(segment, output);
            } catch (IOException io) {
                throw new UncheckedIOException(io);
            }
        }, new CopyOnWriteArrayList<>());

        assertEquals(Optional.of(new JobKey(2, 0)), e.key(), e.getMessage());
        assertTrue(e.getMessage().contains("was interrupted, and not by a cancellation of the request"),
                e.getMessage());
        assertFalse(e.getMessage().contains("ClosedByInterruptException"), e.getMessage());
        assertEquals(2, e.partialResult().orElseThrow().segmentsDelivered());
    }

    @Test
    void theClientIsNeverCalledWithTheInterruptItLeft() {
        InMemoryOutputStore store = new InMemoryOutputStore();
        List<Long> calledInterrupted = new CopyOnWriteArrayList<>();
        RequestFailedException e = runWithAClientThatLeavesAnInterruptAtSegment1(store, store::write,
                calledInterrupted);

        assertEquals(List.of(), calledInterrupted, "segments whose accept began with the thread interrupted");
        assertTrue(e.getMessage().contains("was interrupted, and not by a cancellation of the request"),
                e.getMessage());
        assertEquals(Optional.of(new JobKey(2, 0)), e.key(), e.getMessage());
    }

    private static RequestFailedException runWithAClientThatLeavesAnInterruptAtSegment1(OutputStore store,
            OutputSink sink, List<Long> calledInterrupted) {
        CountDownLatch segment3Done = new CountDownLatch(1);
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, sink, job -> Script.succeed());
        RequestListener listener = new RequestListener() {
            @Override
            public void onJobDone(Job job) {
                if (job.key().segment() == 3) {
                    segment3Done.countDown();
                }
            }
        };
        Throwable thrown;
        try {
            Orderly.engine(CONFIG).run(Request.of(PLAN, tier2, store, (segment, output) -> {
                if (Thread.currentThread().isInterrupted()) {
                    calledInterrupted.add(segment);
                }
                if (segment == 1) {
                    // With one worker, segment 3's job starts only once segment 2's has ended: 2 is ready now.
                    if (!segment3Done.await(10, TimeUnit.SECONDS)) {
                        throw new AssertionError("segment 3 never ran");
                    }
                    Thread.currentThread().interrupt();
                }
            }).withId("r-left").withListener(listener));
            throw new AssertionError("the request ended well, though its client left an interrupt on its thread");
        } catch (Throwable t) {
            thrown = t;
        } finally {
            Thread.interrupted();
        }
        return assertInstanceOf(RequestFailedException.class, thrown);
    }
}
