package dev.orderly.bench.queue;

import dev.orderly.api.JobKey;

/**
 * What the benchmarks need from a launch queue, so that the engine's {@link dev.orderly.engine.LaunchQueue} and the
 * {@link PollingLaunchQueue} baseline run the same benchmark code. The methods mean what they mean on
 * {@code LaunchQueue}.
 */
public interface QueueUnderTest {

    /** Waits until the job of {@code key} may dial. */
    void awaitTurn(JobKey key) throws InterruptedException;

    /** The job was refused: it keeps (or takes) its place and may dial again {@code refusedDelay} from now. */
    void refused(JobKey key);

    /** The job is no longer waiting; idempotent. */
    void leave(JobKey key);

    /** The number of queued jobs. */
    int size();

    /** The number of queued jobs that may dial at once. */
    int windowSize();

    /** How many times a waiting thread woke up (by a signal or a timer) since the queue was made. */
    long wakeUps();

    /** How many of {@link #wakeUps()} found the job outside the window. */
    long wakeUpsOutsideWindow();
}
