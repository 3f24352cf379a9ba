package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The queue's diagnostics ({@code stats}, {@code wakeUpsOutsideWindow}, {@code size},
 * {@code snapshot}) may be read by a monitoring thread at any time: reading one leaves the queue free for the jobs.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class LaunchQueueDiagnosticsDoNotHoldTheQueueTest {

    @Test
    void aJobGetsItsTurnRightAfterAnotherThreadReadTheDiagnostics() throws Exception {
        LaunchQueue queue = new LaunchQueue(10, EngineConfig.defaults());
        assertEquals(0, queue.stats().wakeUps());
        assertEquals(0, queue.wakeUpsOutsideWindow());
        assertEquals(0, queue.stats().dialing());
        assertEquals(0, queue.size());
        assertEquals(0, queue.snapshot().size());

        CompletableFuture<Void> turn = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                queue.awaitTurn(new JobKey(0, 0)); // nothing queued: returns at once
                queue.leave(new JobKey(0, 0));
                turn.complete(null);
            } catch (Throwable t) {
                turn.completeExceptionally(t);
            }
        });
        try {
            turn.get(5, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("a job with nothing queued waited 5 s after the diagnostics were read", e);
        }
    }
}
