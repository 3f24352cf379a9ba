package dev.orderly.bench.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.EngineConfig;
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
        QueueUnderTest queue = kind.create(10, EngineConfig.defaults());

        Waiters waiters = Waiters.start(queue, 200);
        assertEquals(queue.windowSize() + 200, queue.size());

        waiters.cancelAll();
        assertEquals(queue.windowSize(), queue.size());
    }

    @Test
    void launchQueueWaitersOutsideTheWindowAreNeverWoken() throws InterruptedException {
        QueueUnderTest queue = QueueKind.LAUNCH_QUEUE.create(10, EngineConfig.defaults());

        Waiters waiters = Waiters.start(queue, 200);
        waiters.cancelAll();

        assertEquals(0, queue.wakeUps());
    }
}
