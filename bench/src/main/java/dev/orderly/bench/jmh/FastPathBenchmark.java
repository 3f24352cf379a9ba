package dev.orderly.bench.jmh;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.bench.queue.QueueKind;
import dev.orderly.engine.DialGate;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A job's pass through a queue with nothing queued: {@code awaitTurn} then {@code leave}, as the engine does when the
 * fleet has room. {@code LaunchQueue} takes its no-queue fast path (one lock, no join); the polling baseline registers
 * the job, scans the (one-entry) queue and returns.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FastPathBenchmark {

    private static final JobKey KEY = new JobKey(0, 0);

    @Param({"LAUNCH_QUEUE", "POLLING"})
    public QueueKind queue;

    private DialGate q;

    @Setup
    public void setUp() {
        q = queue.create(10, EngineConfig.defaults());
    }

    @Benchmark
    public void awaitTurnWithNothingQueued() throws InterruptedException {
        q.awaitTurn(KEY);
        q.leave(KEY);
    }

    @TearDown
    public void checkEmpty() {
        if (queue.stats(q).queued() != 0) {
            throw new IllegalStateException("queue should be empty after every pass, has " + queue.stats(q).queued());
        }
    }
}
