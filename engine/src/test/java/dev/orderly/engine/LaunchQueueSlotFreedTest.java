package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

/** {@link LaunchQueue#slotFreed()}: a job of the request that ends lets the window's first refused job dial at once. */
@Timeout(10)
class LaunchQueueSlotFreedTest {

    /** Far longer than any wait below: a job that passes did not wait out its delay. */
    private static final Duration DELAY = Duration.ofSeconds(30);

    private final List<TurnWaiter> waiters = new CopyOnWriteArrayList<>();

    @AfterEach
    void interruptLeftoverWaiters() {
        waiters.forEach(TurnWaiter::interrupt);
    }

    private static LaunchQueue queue() {
        // 10 workers: a window of 2.
        return new LaunchQueue(10, EngineConfig.builder().refusedDelay(DELAY).failureDelay(DELAY).build());
    }

    /** Starts awaitTurn for {@code key} and returns once it sits in its timed wait. */
    private TurnWaiter waitingOutItsDelay(LaunchQueue queue, JobKey key) {
        TurnWaiter w = TurnWaiter.start(queue, key);
        waiters.add(w);
        Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> w.thread().getState() == Thread.State.TIMED_WAITING);
        return w;
    }

    @Test
    void aFreedSlotCutsTheRefusedDelayOfTheWindowsFirstRefusedJobShort() throws Exception {
        LaunchQueue queue = queue();
        JobKey low = new JobKey(0, 0);
        queue.refused(low);
        TurnWaiter w = waitingOutItsDelay(queue, low);
        queue.slotFreed();
        assertTrue(w.awaitEnd(5_000) && w.passed(), "passed at once, not after 30 s: " + w.failure());
    }

    @Test
    void aFreedSlotWakesOnlyTheFirstRefusedJobOfTheWindow() throws Exception {
        LaunchQueue queue = queue();
        JobKey low = new JobKey(0, 0);
        JobKey next = new JobKey(1, 0);
        queue.refused(low);
        queue.refused(next);
        TurnWaiter first = waitingOutItsDelay(queue, low);
        TurnWaiter second = waitingOutItsDelay(queue, next);
        queue.slotFreed();
        assertTrue(first.awaitEnd(5_000) && first.passed());
        assertFalse(second.awaitEnd(300), "the second still waits out its 30 s");
    }

    @Test
    void aFreedSlotLeavesAFailedJobOnItsFailureDelay() throws Exception {
        LaunchQueue queue = queue();
        JobKey failed = new JobKey(0, 0);
        queue.failed(failed);
        TurnWaiter w = waitingOutItsDelay(queue, failed);
        queue.slotFreed();
        assertFalse(w.awaitEnd(300), "a failed job keeps its 30 s failure delay");
    }

    @Test
    void aFreedSlotNeverWakesAJobOutsideTheWindow() throws Exception {
        LaunchQueue queue = queue();
        // Window of 2: the two lowest are failed (not shortened), the third is refused but outside the window.
        queue.failed(new JobKey(0, 0));
        queue.failed(new JobKey(1, 0));
        JobKey outside = new JobKey(2, 0);
        queue.refused(outside);
        waitingOutItsDelay(queue, new JobKey(0, 0));
        waitingOutItsDelay(queue, new JobKey(1, 0));
        TurnWaiter w = TurnWaiter.start(queue, outside);
        waiters.add(w);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> w.thread().getState() == Thread.State.WAITING);
        queue.slotFreed();
        assertFalse(w.awaitEnd(300), "outside the window it stays parked");
        assertEquals(0, queue.wakeUpsOutsideWindow());
    }

    @Test
    void aFreedSlotGoesToTheFirstRefusedJobStillSittingOutItsDelay() {
        FakeClock clock = new FakeClock();
        LaunchQueue queue = new LaunchQueue(10, EngineConfig.builder().refusedDelay(DELAY).build(), key -> { }, clock);
        JobKey over = new JobKey(0, 0);
        JobKey waiting = new JobKey(1, 0);
        queue.refused(over);
        clock.advance(DELAY); // (0,0) may dial again now: it needs no freed slot to do so
        queue.refused(waiting);
        long now = FakeClock.START + DELAY.toNanos();

        queue.slotFreed();
        assertEquals(now, queue.notBeforeNanos(over));
        assertEquals(now, queue.notBeforeNanos(waiting), "the freed slot went to the job that still had to wait");
    }

    @Test
    void aFreedSlotLeavesTheDelayOfARefusedJobOutsideTheWindow() {
        FakeClock clock = new FakeClock();
        LaunchQueue queue = new LaunchQueue(10, EngineConfig.builder().refusedDelay(DELAY).failureDelay(DELAY).build(),
                key -> { }, clock); // window 2
        queue.failed(new JobKey(0, 0));
        queue.failed(new JobKey(1, 0));
        JobKey outside = new JobKey(2, 0);
        queue.refused(outside);
        long notBefore = queue.notBeforeNanos(outside);

        queue.slotFreed();
        assertEquals(notBefore, queue.notBeforeNanos(outside), "once in the window it must still wait out its delay");
        assertEquals(notBefore, queue.notBeforeNanos(new JobKey(0, 0)));
        assertEquals(notBefore, queue.notBeforeNanos(new JobKey(1, 0)));
    }
}
