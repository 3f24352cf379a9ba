package dev.orderly.engine;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A join in front of the window pushes its last job out: that job must give up its timed wait at once (no timer may
 * wake a job outside the window), and a wake-up that finds its job pushed out is counted as wasted.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LaunchQueuePushOutTest {

    /** How long a thread that is only ever signalled may take to move: seconds against an hour's delay. */
    private static final Duration MOVES_WITHIN = Duration.ofSeconds(5);
    private static final Duration HOUR = Duration.ofHours(1);

    private final List<TurnWaiter> waiters = new CopyOnWriteArrayList<>();

    @AfterEach
    void interruptLeftoverWaiters() {
        waiters.forEach(TurnWaiter::interrupt);
    }

    private TurnWaiter waitFor(LaunchQueue queue, JobKey key) {
        TurnWaiter waiter = TurnWaiter.start(queue, key);
        waiters.add(waiter);
        return waiter;
    }

    private static JobKey key(long segment) {
        return new JobKey(segment, 0);
    }

    @Test
    void aJobPushedOutOfTheWindowGivesUpItsTimedWaitAtOnce() {
        LaunchQueue queue = new LaunchQueue(10, EngineConfig.builder().refusedDelay(HOUR).build()); // window 2
        queue.refused(key(3));
        queue.refused(key(4));
        TurnWaiter three = waitFor(queue, key(3));
        TurnWaiter four = waitFor(queue, key(4));
        three.awaitWaiting(queue, LaunchBook.Wait.TIMED, MOVES_WITHIN);
        four.awaitWaiting(queue, LaunchBook.Wait.TIMED, MOVES_WITHIN);

        queue.refused(key(1)); // joins in front: (4) is out of the window, and its hour-long timed wait must end now
        four.awaitWaiting(queue, LaunchBook.Wait.PARKED, MOVES_WITHIN);
        three.awaitWaiting(queue, LaunchBook.Wait.TIMED, MOVES_WITHIN);
        assertEquals(List.of(key(1), key(3), key(4)), queue.snapshot());
        assertEquals(1, queue.stats().wakeUps(), "only the pushed-out job was woken");
        assertEquals(0, queue.wakeUpsOutsideWindow(), "the push-out's own signal is not a wasted wake-up");
    }

    @Test
    void aSignalThatFindsItsJobPushedOutOfTheWindowIsAWastedWakeUp() throws InterruptedException {
        // Window 2; refused jobs may dial again at once, failed ones wait an hour.
        LaunchQueue queue = new LaunchQueue(10,
                EngineConfig.builder().refusedDelay(Duration.ZERO).failureDelay(HOUR).build());
        queue.awaitTurn(key(10));
        queue.awaitTurn(key(11)); // nothing queued: both dial, and hold both dial slots
        queue.failed(key(1));
        TurnWaiter one = waitFor(queue, key(1));
        one.awaitWaiting(queue, LaunchBook.Wait.TIMED, MOVES_WITHIN); // sits out its failure delay, in the window
        queue.refused(key(5));
        TurnWaiter five = waitFor(queue, key(5));
        five.awaitWaiting(queue, LaunchBook.Wait.PARKED, MOVES_WITHIN); // ready, in the window, no dial slot

        // One change that no waiting thread can see half of: (10) frees its slot, which wakes (5), the first ready job;
        // then (0) joins in front before (5) runs, and (5) wakes up outside the window.
        queue.whileLocked(() -> {
            queue.leave(key(10));
            assertEquals(LaunchBook.Wait.SIGNALLED, queue.waitState(key(5)));
            queue.refused(key(0));
        });
        five.awaitWaiting(queue, LaunchBook.Wait.PARKED, MOVES_WITHIN);
        assertEquals(List.of(key(0), key(1), key(5)), queue.snapshot());
        assertEquals(1, queue.stats().wakeUps());
        assertEquals(1, queue.wakeUpsOutsideWindow(), "the signal meant for the window found (5) outside it");

        // The slot is still free, for the job now in the window that can use it.
        TurnWaiter zero = waitFor(queue, key(0));
        await().atMost(MOVES_WITHIN).until(zero::passed);
        assertEquals(2, queue.stats().dialing());
    }
}
