package dev.orderly.stress;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchQueue;
import java.time.Duration;

/** Launch queues and keys for the stress tests. */
public final class Queues {

    /** Long enough that a job given this delay never dials again within a test: it only holds its place. */
    public static final Duration FOREVER = Duration.ofHours(1);

    private Queues() {
    }

    /**
     * A queue whose window is exactly {@code window} (one worker, min = max = window) and whose refused and failed
     * jobs may dial again at once: with no timers in play, what a test sees is decided by the order of events alone.
     */
    public static LaunchQueue windowOf(int window) {
        return windowOf(window, Duration.ZERO);
    }

    /** As {@link #windowOf(int)}, with the given delay after a refusal. */
    public static LaunchQueue windowOf(int window, Duration refusedDelay) {
        EngineConfig config = EngineConfig.builder()
                .launchWindowPercent(1)
                .launchWindowMin(window)
                .launchWindowMax(window)
                .refusedDelay(refusedDelay)
                .failureDelay(Duration.ZERO)
                .build();
        return new LaunchQueue(1, config);
    }

    /** The key of {@code segment}, stage 0. */
    public static JobKey key(long segment) {
        return new JobKey(segment, 0);
    }

    /**
     * Makes {@code key} a queued job that holds a dial slot, the state of a job that dialed from its place. The key
     * must be inside the window with a slot free, so {@code awaitTurn} returns at once; anything else is a broken
     * test set-up and throws rather than waiting.
     */
    public static void queuedAndDialing(LaunchQueue queue, JobKey key) {
        queue.refused(key);
        int before = queue.stats().dialing();
        Waiter waiter = Waiter.start(queue, key);
        int outcome = waiter.await();
        if (outcome != Waiter.PASSED || queue.stats().dialing() != before + 1) {
            throw new IllegalStateException("set-up: " + key + " did not get a dial slot at once, outcome "
                    + outcome + ", queue " + queue.snapshot() + ", dialing " + queue.stats().dialing());
        }
    }
}
