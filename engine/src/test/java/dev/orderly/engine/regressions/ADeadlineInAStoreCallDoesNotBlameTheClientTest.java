package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import dev.orderly.testing.OutputSink;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found in review: a deadline that passed while the output walker was inside an {@code OutputStore} call (a read of
 * the client's next segment, or, with resume, the look-up of a segment entering the look-ahead window) said
 * "1 of 3 segments delivered, segment 1 ready, the client still on segment 0", which blames a client that had
 * returned from segment 0 long before (the count right beside it says so) and sends the reader to the client's code,
 * while it was the store that held the request. "the client still on segment S-1" is for a deadline met while the
 * client is busy in {@code accept}; a ready segment the walker was reading or looking past is "not yet handed to the
 * client".
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ADeadlineInAStoreCallDoesNotBlameTheClientTest {

    @Test
    void aReadOfTheClientsNextSegmentCutShortByTheDeadlineDoesNotBlameTheClient() {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        InMemoryOutputStore written = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, written::write, job -> Script.succeed());
        // The read of segment 1 (ready: the walker reads only a segment whose job is done) hangs until interrupted.
        OutputStore store = segment -> {
            if (segment == 1) {
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    throw new InterruptedIOException("read of segment 1 interrupted");
                }
            }
            return written.read(segment);
        };
        List<Long> returned = new CopyOnWriteArrayList<>();

        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, output) -> returned.add(segment))
                        .withId("r-13").withDeadline(Duration.ofSeconds(1))).failure(10);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(List.of(0L), returned, "the client returned from segment 0 before the deadline");
        assertTrue(e.getMessage().endsWith("the OutputStore's read of segment 1 was interrupted at the deadline"),
                e.getMessage());
        assertTrue(e.getMessage().contains("1 of 3 segments delivered, segment 1 ready, not yet handed to the client"),
                e.getMessage());
        assertFalse(e.getMessage().contains("the client still on"), e.getMessage());
    }

    @Test
    void aLookUpAheadOfTheClientCutShortByTheDeadlineDoesNotBlameTheClient() {
        RequestPlan plan = new RequestPlan(0, 3, 1, 1);
        InMemoryOutputStore written = new InMemoryOutputStore();
        CountDownLatch segment1Written = new CountDownLatch(1);
        OutputSink sink = (segment, output) -> {
            written.write(segment, output);
            if (segment == 1) {
                segment1Written.countDown();
            }
        };
        ScriptedTier2 tier2 = new ScriptedTier2(plan, sink, job -> Script.succeed());
        // With resume and a look-ahead of 2 segments, the look-up of segment 2 comes once segment 0 was delivered;
        // it waits until segment 1's output is there (so segment 1 is ready), then hangs until interrupted.
        OutputStore store = new OutputStore() {
            @Override
            public Optional<byte[]> read(long segment) {
                return written.read(segment);
            }

            @Override
            public boolean contains(long segment) throws InterruptedIOException {
                if (segment == 2) {
                    try {
                        segment1Written.await();
                        new CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        throw new InterruptedIOException("look-up of segment 2 interrupted");
                    }
                }
                return false;
            }
        };
        List<Long> returned = new CopyOnWriteArrayList<>();

        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, output) -> returned.add(segment))
                        .withId("r-14").withResume(true).withDeadline(Duration.ofSeconds(1))).failure(10);

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(List.of(0L), returned, "the client returned from segment 0 before the deadline");
        assertTrue(e.getMessage().endsWith("the OutputStore's look-up of segment 2 was interrupted at the deadline"),
                e.getMessage());
        assertTrue(e.getMessage().contains("1 of 3 segments delivered, segment 1 ready, not yet handed to the client"),
                e.getMessage());
        assertFalse(e.getMessage().contains("the client still on"), e.getMessage());
    }
}
