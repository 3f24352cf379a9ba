package dev.orderly.bench.queue;

import dev.orderly.api.EngineConfig;
import dev.orderly.engine.DialGate;
import dev.orderly.engine.LaunchQueue;

/**
 * The two queues every benchmark runs against, both behind the engine's {@link DialGate}; the constant names are the
 * values of the {@code queue} parameter. Each kind also reads its queue's figures, which the dialing interface does not
 * carry.
 */
public enum QueueKind {
    /** The engine's {@link LaunchQueue}: parked waiters, targeted signals. */
    LAUNCH_QUEUE {
        @Override
        public DialGate create(int workers, EngineConfig config) {
            return new LaunchQueue(workers, config);
        }

        @Override
        public LaunchQueue.Stats stats(DialGate queue) {
            return ((LaunchQueue) queue).stats();
        }

        @Override
        public int windowSize(DialGate queue) {
            return ((LaunchQueue) queue).windowSize();
        }
    },
    /** The baseline: every waiter re-checks every {@code refusedDelay} by scanning the whole queue. */
    POLLING {
        @Override
        public DialGate create(int workers, EngineConfig config) {
            return new PollingLaunchQueue(workers, config);
        }

        @Override
        public LaunchQueue.Stats stats(DialGate queue) {
            return ((PollingLaunchQueue) queue).stats();
        }

        @Override
        public int windowSize(DialGate queue) {
            return ((PollingLaunchQueue) queue).windowSize();
        }
    };

    /** A new, empty queue of this kind for a request of {@code workers} workers. */
    public abstract DialGate create(int workers, EngineConfig config);

    /** The figures of {@code queue}, made by this kind: queued, dialing, wake-ups. */
    public abstract LaunchQueue.Stats stats(DialGate queue);

    /** How many queued jobs of {@code queue}, made by this kind, may dial at once. */
    public abstract int windowSize(DialGate queue);
}
