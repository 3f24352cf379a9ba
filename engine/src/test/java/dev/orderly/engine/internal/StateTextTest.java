package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.LaunchQueue;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The state the gates, the board and the scheduler print for log lines and failed-invariant messages: what someone
 * reading a log or an assertion error gets to see.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class StateTextTest {

    private static final EngineConfig CONFIG =
            EngineConfig.builder().refusedDelay(Duration.ofMillis(100)).failureDelay(Duration.ofSeconds(5)).build();

    @Test
    void theGatesNameTheirWindowAndDelays() {
        assertEquals("DelayGate[refusedDelay=100ms, failureDelay=5000ms]", new DelayGate(CONFIG).toString());
        assertEquals("LaunchQueue[window=2, refusedDelay=100ms, failureDelay=5000ms]",
                new LaunchQueue(10, CONFIG).toString());
    }

    @Test
    void theBoardNamesTheClientsSegmentItsWindowAndItsFrontier() {
        UnitBoard board = new UnitBoard(new RequestPlan(0, 10, 2, 2), 4);
        JobKey first = board.next();
        board.scheduled(first);
        board.done(first, UnitCounts.NONE);
        assertEquals("UnitBoard[reading 0, window end 4, checked 10, frontier [1, 1], cursor [0, 0]]",
                board.toString());
    }

    /** The scheduler names its jobs alive, whether it stopped or failed, and its board, read under its lock. */
    @Test
    void schedulerToStringReadTheBoardWithoutTheLock() throws InterruptedException {
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 10, 2, 2), 4);
        scheduler.awaitNextJob();
        String board = "UnitBoard[reading 0, window end 4, checked 10, frontier [0, 0], cursor [0, 0]]";
        assertEquals("Scheduler[alive 1 of 2, " + board + "]", scheduler.toString());
        scheduler.jobFailed();
        assertEquals("Scheduler[alive 0 of 2, failed, " + board + "]", scheduler.toString());
        scheduler.stop();
        assertEquals("Scheduler[alive 0 of 2, stopped, failed, " + board + "]", scheduler.toString());

        // Read from another thread, which ends: it must have let go of the lock, or the scheduler is stuck for good.
        Thread reader = Thread.ofVirtual().start(scheduler::toString);
        reader.join();
        assertTimeoutPreemptively(Duration.ofSeconds(5), scheduler::alive, "the scheduler's lock was left held");
    }
}
