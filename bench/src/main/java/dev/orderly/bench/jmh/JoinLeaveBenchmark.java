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
 * One job joining a queue that already holds {@code queued} jobs, and leaving it: {@code refused(key)} (the job takes
 * its place, as after a refusal) then {@code leave(key)}. The key sorts into the middle of the queue. The queued jobs
 * are entries with no thread behind them, the state between a refusal and the job's next {@code awaitTurn}; what
 * waiting threads cost is measured by {@link IdleWaitersBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JoinLeaveBenchmark {

    @Param({"LAUNCH_QUEUE", "POLLING"})
    public QueueKind queue;

    @Param({"10", "1000", "100000"})
    public int queued;

    private DialGate q;
    private JobKey key;

    @Setup
    public void setUp() {
        q = queue.create(10, EngineConfig.defaults());
        for (int i = 0; i < queued; i++) {
            q.refused(new JobKey(i, 0));
        }
        // Stage 1 of the middle segment sorts just ahead of its stage 0, which is queued.
        key = new JobKey(queued / 2, 1);
    }

    @Benchmark
    public void joinThenLeave() {
        q.refused(key);
        q.leave(key);
    }

    @TearDown
    public void checkSize() {
        if (queue.stats(q).queued() != queued) {
            throw new IllegalStateException("queue should hold " + queued + " jobs, has " + queue.stats(q).queued());
        }
    }
}
