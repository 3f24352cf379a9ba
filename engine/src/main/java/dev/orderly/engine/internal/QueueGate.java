package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchQueue;

/** Ordered launch: every dial waits its turn in the request's {@link LaunchQueue}. Thread-safe as the queue is. */
final class QueueGate implements DialGate {

    private final LaunchQueue queue;

    QueueGate(LaunchQueue queue) {
        this.queue = queue;
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
    public void failed(JobKey key) {
        queue.failed(key);
    }

    @Override
    public void leave(JobKey key) {
        queue.leave(key);
    }

    @Override
    public void slotFreed() {
        queue.slotFreed();
    }

    @Override
    public String toString() {
        return queue.toString();
    }
}
