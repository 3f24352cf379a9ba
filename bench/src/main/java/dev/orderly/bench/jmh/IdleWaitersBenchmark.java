package dev.orderly.bench.jmh;

import com.sun.management.ThreadMXBean;
import dev.orderly.api.EngineConfig;
import dev.orderly.bench.queue.QueueKind;
import dev.orderly.bench.queue.Waiters;
import dev.orderly.engine.DialGate;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What {@code waiters} jobs waiting outside the window cost while nothing moves. Each measured invocation watches the
 * queue for one second; JMH divides the secondary results by the iteration's length, so they read per second:
 * {@code wakeUps} (times a waiting thread woke up) and {@code cpuMicros} (CPU time of the JVM's threads in
 * microseconds; 1,000,000 per second is one core busy, 2,000,000 both). The primary score only counts the one-second
 * watches. The window (2, for 10 workers) is held by jobs that never dial, so every waiter stays outside it.
 *
 * <p>CPU time is summed over every live platform thread with {@link com.sun.management.ThreadMXBean} (virtual
 * threads run on carrier threads, which are counted), because the process CPU time of {@code OperatingSystemMXBean}
 * moved in 10 ms steps on this machine, too coarse to see an idle queue. It includes the fork's own background (JMH,
 * JIT, GC), the same for both queues.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class IdleWaitersBenchmark {

    private static final long WATCH_MILLIS = 1_000;

    @Param({"LAUNCH_QUEUE", "POLLING"})
    public QueueKind queue;

    @Param({"100", "1000", "10000"})
    public int waiters;

    private DialGate q;
    private Waiters threads;

    /** The secondary results, summed over an iteration's watches and reported per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Cost {
        public long wakeUps;
        public long cpuMicros;

        @Setup(Level.Iteration)
        public void reset() {
            wakeUps = 0;
            cpuMicros = 0;
        }
    }

    @Setup(Level.Trial)
    public void startWaiters() {
        q = queue.create(10, EngineConfig.defaults());
        threads = Waiters.start(queue, q, waiters);
    }

    @Benchmark
    public void watchOneSecond(Cost cost) throws InterruptedException {
        long wakeUps0 = queue.stats(q).wakeUps();
        long cpu0 = threadCpuNanos();
        Thread.sleep(WATCH_MILLIS);
        cost.cpuMicros += (threadCpuNanos() - cpu0) / 1_000;
        cost.wakeUps += queue.stats(q).wakeUps() - wakeUps0;
        threads.check();
    }

    /** CPU time of every live platform thread; a thread that ended in between takes its share with it. */
    private static long threadCpuNanos() {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long nanos : threads.getThreadCpuTime(threads.getAllThreadIds())) {
            if (nanos > 0) {
                sum += nanos;
            }
        }
        return sum;
    }

    @TearDown(Level.Trial)
    public void cancelWaiters() throws InterruptedException {
        threads.cancelAll();
    }
}
