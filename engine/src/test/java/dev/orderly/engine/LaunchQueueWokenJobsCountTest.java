package dev.orderly.engine;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchBook.Wait;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job woken already counts against the window's free slots only when it is ready: one woken to start its timed wait
 * (it entered the window with its delay ahead) takes no slot, so it must not hold back a ready job behind it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LaunchQueueWokenJobsCountTest {

    @Test
    void aReadyJobBehindAJobWokenForItsTimedWaitIsWoken() throws Exception {
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofHours(1))
                .failureDelay(Duration.ofHours(2)).build();
        // the clock stands still: no refused delay ends
        LaunchQueue queue = new LaunchQueue(8, config, key -> { }, () -> 0L);
        assertEquals(2, queue.windowSize());
        JobKey w = new JobKey(0, 0);
        JobKey x = new JobKey(1, 0);
        JobKey e = new JobKey(2, 0);
        JobKey a = new JobKey(3, 0);
        JobKey d = new JobKey(9, 0);
        for (JobKey key : new JobKey[] {d, w, x, e}) {
            queue.awaitTurn(key); // nothing queued: each dials at once
        }
        queue.refused(w);
        queue.refused(x);
        queue.refused(e); // queue [w, x, e], each on its refused delay; d holds one slot
        TurnWaiter eWaiter = TurnWaiter.start(queue, e);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.waitState(e) == Wait.PARKED); // outside the window
        TurnWaiter aWaiter = TurnWaiter.start(queue, a);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.waitState(a) == Wait.PARKED);
        queue.whileLocked(() -> {
            queue.leave(w); // e enters the window, woken to start its timed wait
            queue.leave(x); // a enters the window, ready, and one slot is free
        });
        await().atMost(Duration.ofSeconds(10)).until(aWaiter::passed);
        queue.leave(a);
        queue.leave(d);
        queue.leave(e);
        await().atMost(Duration.ofSeconds(10)).until(eWaiter::ended);
    }
}
