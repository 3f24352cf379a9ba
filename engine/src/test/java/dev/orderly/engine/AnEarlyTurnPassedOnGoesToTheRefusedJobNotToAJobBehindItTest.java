package dev.orderly.engine;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchBook.Wait;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * docs/guide/launch-queue.md: if the job a freed slot hurried does not dial (it leaves before it comes back for its
 * turn), "the next refused job of the window gets the early turn instead"; and queued jobs dial in launch order. A
 * withdrawal of such a job that also brings a ready job into the window gave the one free slot to that job behind,
 * and left the head (the refused job just handed the early turn) parked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnEarlyTurnPassedOnGoesToTheRefusedJobNotToAJobBehindItTest {

    @Test
    void theHeadGetsThePassedOnEarlyTurn() throws Exception {
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofHours(1))
                .failureDelay(Duration.ofHours(2)).build();
        // the clock stands still: only slotFreed ends a refused delay here
        LaunchQueue queue = new LaunchQueue(8, config, key -> { }, () -> 0L);
        assertEquals(2, queue.windowSize());
        JobKey head = new JobKey(1, 2);
        JobKey hurried = new JobKey(2, 1);
        JobKey behind = new JobKey(2, 0);
        JobKey other = new JobKey(0, 2);

        queue.awaitTurn(hurried); // nothing queued: dials at once
        queue.refused(hurried); // queued, on its refused delay, no thread
        queue.awaitTurn(head); // sorts ahead, a slot free: dials at once
        queue.refused(head); // queue [head, hurried], both refused
        queue.slotFreed(); // hurries head
        queue.slotFreed(); // hurries `hurried`
        TurnWaiter first = TurnWaiter.start(queue, head);
        await().atMost(Duration.ofSeconds(10)).until(first::passed); // head used its early turn
        queue.refused(head); // refused again: a refused delay ahead, not hurried
        TurnWaiter headWaiter = TurnWaiter.start(queue, head);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.waitState(head) == Wait.TIMED);
        TurnWaiter behindWaiter = TurnWaiter.start(queue, behind); // third: outside the window
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.waitState(behind) == Wait.PARKED);
        queue.awaitTurn(other); // sorts ahead of all, a slot free: dials; one slot is left

        // `hurried` never came back for its early turn: it is withdrawn. The early turn passes to head, the window's
        // refused job; `behind` enters the window, ready, but the one free slot is head's.
        queue.leave(hurried);

        await().atMost(Duration.ofSeconds(10)).until(() -> headWaiter.ended() || behindWaiter.ended());
        await().atMost(Duration.ofSeconds(10)).until(() -> headWaiter.ended()
                || queue.waitState(head) == Wait.PARKED);
        assertTrue(headWaiter.passed(), "the head, handed the early turn, should dial; instead " + head + " is "
                + queue.waitState(head) + " and " + behind + (behindWaiter.passed() ? " dialed" : " did not dial"));
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.waitState(behind) == Wait.PARKED);
        assertEquals(2, queue.stats().dialing());
        queue.leave(head);
        queue.leave(other);
        await().atMost(Duration.ofSeconds(10)).until(behindWaiter::passed);
        queue.leave(behind);
    }
}
