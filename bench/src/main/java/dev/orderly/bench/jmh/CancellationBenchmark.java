package dev.orderly.bench.jmh;

import dev.orderly.api.EngineConfig;
import dev.orderly.bench.queue.QueueKind;
import dev.orderly.bench.queue.Waiters;
import dev.orderly.engine.DialGate;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Cancelling a request's waiting jobs: {@code waiters} jobs wait outside the window, each on its own virtual thread;
 * the measured invocation interrupts them all and returns when every thread has ended and none is left in the queue.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class CancellationBenchmark {

    @Param({"LAUNCH_QUEUE", "POLLING"})
    public QueueKind queue;

    @Param({"100", "1000", "10000"})
    public int waiters;

    private Waiters threads;

    @Setup(Level.Iteration)
    public void startWaiters() {
        DialGate q = queue.create(10, EngineConfig.defaults());
        threads = Waiters.start(queue, q, waiters);
    }

    @Benchmark
    public void cancelAllUntilThreadsEnded() throws InterruptedException {
        threads.cancelAll();
    }
}
