package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.ThreadCensus;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The deadline bounds the walker's wait on the {@code OutputStore}: a read still running when the deadline passes
 * is interrupted, and the request fails at its deadline instead of waiting for the store.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheDeadlineBoundsAStoreReadTest {

    @Test
    void aReadThatHangsIsInterruptedAtTheDeadline() throws Exception {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        InMemoryOutputStore written = new InMemoryOutputStore();
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch readHangs = new CountDownLatch(1);
        OutputStore store = new OutputStore() {
            @Override
            public Optional<byte[]> read(long segment) throws InterruptedIOException {
                if (segment == 1) {
                    readHangs.countDown();
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        throw new InterruptedIOException("read of segment 1 interrupted");
                    }
                }
                return written.read(segment);
            }
        };
        ScriptedTier2 tier2 = new ScriptedTier2(plan, written::write, job -> Script.succeed());
        ThreadCensus census = new ThreadCensus();
        Background run = new Background(census.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, new RecordingClient()).withDeadline(Duration.ofMillis(300)));

        RequestFailedException e = assertInstanceOf(RequestFailedException.class, run.failure(10));

        assertTrue(readHangs.getCount() == 0, "the read never started");
        assertTrue(e.getMessage().contains("passed its deadline of 300ms: 1 of 3 segments delivered"), e.getMessage());
        assertTrue(e.getMessage().endsWith("the OutputStore's read of segment 1 was interrupted at the deadline"),
                e.getMessage());
        assertTrue(census.alive() == 0, "request threads alive after run");
    }
}
