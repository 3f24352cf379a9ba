package dev.orderly.bench.queue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchQueue;

/** The engine's {@link LaunchQueue}, as a {@link QueueUnderTest}. Adds nothing but the delegation. */
final class LaunchQueueUnderTest implements QueueUnderTest {

    private final LaunchQueue queue;

    LaunchQueueUnderTest(int workers, EngineConfig config) {
        this.queue = new LaunchQueue(workers, config);
    }

    @Override
    public void awaitTurn(JobKey key) throws InterruptedException {
        queue.awaitTurn(key);
    }

    @Override
    public void refused(JobKey key) {
        queue.refused(key);
    }

    @Override
    public void leave(JobKey key) {
        queue.leave(key);
    }

    @Override
    public int size() {
        return queue.size();
    }

    @Override
    public int windowSize() {
        return queue.windowSize();
    }

    @Override
    public long wakeUps() {
        return queue.stats().wakeUps();
    }

    @Override
    public long wakeUpsOutsideWindow() {
        return queue.wakeUpsOutsideWindow();
    }

    @Override
    public String toString() {
        return queue.toString();
    }
}
