package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code slotFreed()} lets the window's first refused job dial at once. When that job never dials (its unit was
 * covered by a higher stage, whose end is what freed the slot, or the job was cancelled), the early turn was lost:
 * the next refused job of the window sat out its whole refused delay while the freed slot stayed idle, against "the
 * wake-up it may have received is passed on, so no other job loses its turn". Window of 2, a refused delay of 30 s.
 */
@Timeout(20)
class AFreedSlotsTurnIsPassedOnWhenTheHurriedJobNeverDialsTest {

    private static final Duration DELAY = Duration.ofSeconds(30);

    private final List<TurnWaiter> waiters = new CopyOnWriteArrayList<>();

    @AfterEach
    void interruptLeftoverWaiters() {
        waiters.forEach(TurnWaiter::interrupt);
        Thread.interrupted();
    }

    private static LaunchQueue queue() {
        return new LaunchQueue(10, EngineConfig.builder().refusedDelay(DELAY).failureDelay(DELAY).build());
    }

    private TurnWaiter waitingOutItsDelay(LaunchQueue queue, JobKey key) {
        TurnWaiter w = TurnWaiter.start(queue, key);
        waiters.add(w);
        Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> w.thread().getState() == Thread.State.TIMED_WAITING);
        return w;
    }

    @Test
    void aHurriedJobInterruptedBeforeItDialsPassesItsTurnOn() throws InterruptedException {
        LaunchQueue queue = queue();
        JobKey low = new JobKey(0, 0);
        JobKey next = new JobKey(1, 0);
        queue.refused(low);
        queue.refused(next);
        TurnWaiter second = waitingOutItsDelay(queue, next);
        // A job ended on a tier2: the first refused job, low, may dial at once. Its thread is on its way back to its
        // turn, and is cancelled (its unit covered) before it gets there.
        queue.slotFreed();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> queue.awaitTurn(low));

        assertTrue(second.awaitEnd(5_000) && second.passed(),
                "the freed slot's turn went nowhere: the next refused job waits out its 30 s");
    }

    @Test
    void aHurriedJobThatLeavesBeforeItDialsPassesItsTurnOn() throws InterruptedException {
        LaunchQueue queue = queue();
        JobKey low = new JobKey(0, 0);
        JobKey next = new JobKey(1, 0);
        queue.refused(low);
        queue.refused(next);
        TurnWaiter second = waitingOutItsDelay(queue, next);
        queue.slotFreed();
        // low's job ends before it comes back for its turn (its unit no longer needed): it leaves, never dialing.
        queue.leave(low);

        assertTrue(second.awaitEnd(5_000) && second.passed(),
                "the freed slot's turn went nowhere: the next refused job waits out its 30 s");
    }
}
