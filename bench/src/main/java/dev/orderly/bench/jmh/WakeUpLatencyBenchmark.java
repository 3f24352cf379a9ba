package dev.orderly.bench.jmh;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.bench.queue.QueueKind;
import dev.orderly.engine.DialGate;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
 * Wake-up latency when the window moves: the time from {@code leave} of the job at the head of a window of one to the
 * return from {@code awaitTurn} of the job waiting behind it, on its own virtual thread. Before each measured leave
 * the waiting job has joined and is asleep (parked for {@code LaunchQueue}, in its polling sleep for the baseline),
 * and then a random time in {@code [0, refusedDelay)} passes, so that for the baseline the leave falls at a uniformly
 * random point of the waiter's polling period (both queues get the same pause). The benchmark thread spins, yielding
 * its core (which matters on 2 cores), until the waiter reports its return, so the figure is leave-to-return, not the
 * time to wake the benchmark thread. Default {@code refusedDelay} (100 ms), the baseline's polling period.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class WakeUpLatencyBenchmark {

    private static final JobKey HEAD = new JobKey(0, 0);
    private static final JobKey NEXT = new JobKey(1, 0);
    private static final long PATIENCE_NANOS = Duration.ofSeconds(30).toNanos();

    @Param({"LAUNCH_QUEUE", "POLLING"})
    public QueueKind queue;

    private DialGate q;
    private long refusedDelayNanos;
    private Thread waiter;
    private volatile boolean returned;
    private volatile Throwable failure;

    @Setup(Level.Trial)
    public void setUpQueue() {
        EngineConfig windowOfOne = EngineConfig.builder().launchWindowMin(1).launchWindowMax(1).build();
        q = queue.create(1, windowOfOne);
        refusedDelayNanos = windowOfOne.refusedDelay().toNanos();
        if (queue.windowSize(q) != 1) {
            throw new IllegalStateException("expected a window of 1, got " + queue.windowSize(q));
        }
    }

    @Setup(Level.Invocation)
    public void queueHeadAndParkNext() {
        returned = false;
        q.refused(HEAD);
        waiter = Thread.ofVirtual().name("next").start(() -> {
            try {
                q.awaitTurn(NEXT);
                returned = true;
                q.leave(NEXT);
            } catch (Throwable t) {
                failure = t;
            }
        });
        long deadline = System.nanoTime() + PATIENCE_NANOS;
        while (queue.stats(q).queued() < 2 || !asleep(waiter.getState())) {
            checkWaiter();
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the next job did not go to sleep behind the head: size " + queue.stats(q).queued()
                        + ", state " + waiter.getState());
            }
            LockSupport.parkNanos(50_000);
        }
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(refusedDelayNanos));
        checkWaiter();
    }

    private static boolean asleep(Thread.State state) {
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    @Benchmark
    public void leaveToNextReturn() {
        q.leave(HEAD);
        long deadline = System.nanoTime() + PATIENCE_NANOS;
        while (!returned) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the next job did not return within 30 s of the leave");
            }
            Thread.yield();
        }
    }

    @TearDown(Level.Invocation)
    public void joinWaiter() throws InterruptedException {
        if (!waiter.join(Duration.ofSeconds(30))) {
            throw new IllegalStateException("the next job's thread did not end");
        }
        checkWaiter();
        if (queue.stats(q).queued() != 0) {
            throw new IllegalStateException("queue should be empty, has " + queue.stats(q).queued());
        }
    }

    private void checkWaiter() {
        Throwable t = failure;
        if (t != null) {
            throw new IllegalStateException("the next job failed: " + t, t);
        }
    }
}
