package dev.orderly.bench.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.EngineConfig;
import dev.orderly.engine.DialGate;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The harness of the waiting and cancelling benchmarks does what they say, for both queues. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WaitersTest {

    @ParameterizedTest
    @EnumSource(QueueKind.class)
    void waitersQueueBehindAFullWindowAndCancellingThemLeavesOnlyTheBlockers(QueueKind kind)
            throws InterruptedException {
        DialGate queue = kind.create(10, EngineConfig.defaults());

        Waiters waiters = Waiters.start(kind, queue, 200);
        assertEquals(kind.windowSize(queue) + 200, kind.stats(queue).queued());

        waiters.cancelAll();
        assertEquals(kind.windowSize(queue), kind.stats(queue).queued());
    }

    @Test
    void launchQueueWaitersOutsideTheWindowAreNeverWoken() throws InterruptedException {
        DialGate queue = QueueKind.LAUNCH_QUEUE.create(10, EngineConfig.defaults());

        Waiters waiters = Waiters.start(QueueKind.LAUNCH_QUEUE, queue, 200);
        waiters.cancelAll();

        assertEquals(0, QueueKind.LAUNCH_QUEUE.stats(queue).wakeUps());
    }
}
