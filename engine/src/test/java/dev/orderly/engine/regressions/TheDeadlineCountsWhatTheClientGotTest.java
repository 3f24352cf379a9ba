package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: with resume, a deadline that failed the request while the walker looked up a segment ahead of the
 * client (the one entering the look-ahead window) counted the deliveries up to that segment: "8 of 100 segments
 * delivered" when the client had one. The message counts what the client got, as the partial result does, and says in
 * plain words where the deadline caught the walker.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheDeadlineCountsWhatTheClientGotTest {

    /** The client is slower than the deadline: the deadline passes inside accept(100), seen at the next look-up. */
    @Test
    void aDeadlinePassedInsideTheClientCountsTheDeliveriesRight() {
        RequestPlan plan = new RequestPlan(100, 200, 1, 4); // look-ahead 8
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        List<Long> got = new CopyOnWriteArrayList<>();
        Background run = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, bytes) -> {
                    got.add(segment);
                    if (segment == 100) {
                        Thread.sleep(600);
                    }
                }).withId("r-7").withResume(true).withDeadline(Duration.ofMillis(300)));

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, run.failure(10));

        assertEquals(List.of(100L), got);
        assertEquals(1, e.partialResult().orElseThrow().segmentsDelivered());
        assertTrue(e.getMessage().startsWith("request r-7 passed its deadline of 300ms: 1 of 100 segments delivered, "),
                e.getMessage());
        assertTrue(e.getMessage().endsWith(" refusals; it passed before the OutputStore was asked about segment 108"),
                e.getMessage());
    }

    /** A look-up of segment 103, ahead of the client, hangs until the deadline interrupts it: nothing delivered. */
    @Test
    void aLookUpAheadInterruptedAtTheDeadlineCountsTheDeliveriesRight() {
        RequestPlan plan = new RequestPlan(100, 110, 1, 4);
        InMemoryOutputStore written = new InMemoryOutputStore();
        OutputStore store = new OutputStore() {
            @Override
            public Optional<byte[]> read(long segment) {
                return written.read(segment);
            }

            @Override
            public boolean contains(long segment) throws IOException {
                if (segment == 103) {
                    try {
                        Thread.sleep(5_000);
                    } catch (InterruptedException ie) {
                        throw new InterruptedIOException("look-up interrupted");
                    }
                }
                return written.read(segment).isPresent();
            }
        };
        ScriptedTier2 tier2 = new ScriptedTier2(plan, written::write, job -> Script.succeed());
        Background run = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, bytes) -> { }).withId("r-7").withResume(true)
                        .withDeadline(Duration.ofMillis(300)));

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, run.failure(10));

        assertEquals(0, e.partialResult().orElseThrow().segmentsDelivered());
        assertTrue(e.getMessage().startsWith("request r-7 passed its deadline of 300ms: 0 of 10 segments delivered, "),
                e.getMessage());
        assertTrue(e.getMessage().endsWith(
                "; the OutputStore's look-up of segment 103 was interrupted at the deadline"), e.getMessage());
    }
}
