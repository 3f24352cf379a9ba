package dev.orderly.bench.queue;

import dev.orderly.api.EngineConfig;

/** The two queues every benchmark runs against; the constant names are the values of the {@code queue} parameter. */
public enum QueueKind {
    /** The engine's {@link dev.orderly.engine.LaunchQueue}: parked waiters, targeted signals. */
    LAUNCH_QUEUE {
        @Override
        public QueueUnderTest create(int workers, EngineConfig config) {
            return new LaunchQueueUnderTest(workers, config);
        }
    },
    /** The baseline: every waiter re-checks every {@code refusedDelay} by scanning the whole queue. */
    POLLING {
        @Override
        public QueueUnderTest create(int workers, EngineConfig config) {
            return new PollingLaunchQueue(workers, config);
        }
    };

    /** A new, empty queue of this kind for a request of {@code workers} workers. */
    public abstract QueueUnderTest create(int workers, EngineConfig config);
}
