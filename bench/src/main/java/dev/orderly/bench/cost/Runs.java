package dev.orderly.bench.cost;

import dev.orderly.api.Engine;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.bench.scale.CheckingConsumer;
import dev.orderly.bench.scale.HeapWatch;
import dev.orderly.engine.InMemoryOutputStore;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The runs a {@link Comparison} times: one request, many small requests at once, one very long request, each on the
 * engine or on the {@link HandWrittenExecutor}, over the same {@link InstantTier2}, {@link InMemoryOutputStore} and
 * {@link CheckingConsumer}. Every run checks that every segment was delivered, in order, with its own output, and
 * throws if not: a figure is printed only for a run that did the whole job.
 */
final class Runs {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** Who runs the request: the engine, or the hand-written executor. */
    interface Runner {
        /** Runs request {@code id} to its end; returns the engine's dial count, or -1 when it does not keep one. */
        long run(String id, RequestPlan plan, InstantTier2 tier2, InMemoryOutputStore outputs,
                CheckingConsumer client) throws Exception;
    }

    static Runner engine(Engine engine) {
        return (id, plan, tier2, outputs, client) -> {
            RequestResult result = engine.run(new Request(id, plan, tier2, outputs, client,
                    RequestListener.NONE));
            if (result.segmentsDelivered() != plan.segmentCount()) {
                throw new IllegalStateException("engine delivered " + result.segmentsDelivered() + " of "
                        + plan.segmentCount() + " segments");
            }
            return result.dials();
        };
    }

    static Runner handWritten() {
        return (id, plan, tier2, outputs, client) -> {
            HandWrittenExecutor.run(id, plan, tier2, outputs, client);
            return -1;
        };
    }

    /** The hand-written executor making the engine's per-job JFR events ({@link HandWrittenEvents}). */
    static Runner handWrittenWithEvents() {
        return (id, plan, tier2, outputs, client) -> {
            HandWrittenExecutor.run(id, plan, tier2, outputs, client, true);
            return -1;
        };
    }

    private Runs() {
    }

    /**
     * One request of {@code plan}; the caller is a platform thread (this one) or a new virtual thread. Figures:
     * segments per second, dials per segment, CPU time of the whole process per segment (µs; every thread, the JIT's
     * and the collector's included): unlike the rate, it does not count time spent waiting for a core that another
     * process holds, so it is the steadier figure on a loaded machine; bytes allocated per segment (by every thread:
     * the steadiest figure of all); the kernel's share of that CPU time (%) and the context switches of the
     * process's OS threads per 1,000 segments ({@link KernelCounters}; NaN where Linux's {@code /proc} is missing).
     */
    static double[] oneRequest(Runner runner, RequestPlan plan, double refusalRate, boolean virtualCaller)
            throws Exception {
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        InstantTier2 tier2 = new InstantTier2(plan.lastStage(), outputs, refusalRate);
        CheckingConsumer client = new CheckingConsumer(plan.startSegment(), outputs);
        long[] elapsed = new long[3];
        Callable<Void> body = () -> {
            long cpu = OS.getProcessCpuTime();
            long allocated = THREADS.getTotalThreadAllocatedBytes();
            long start = System.nanoTime();
            runner.run("cost", plan, tier2, outputs, client);
            elapsed[0] = System.nanoTime() - start;
            elapsed[1] = OS.getProcessCpuTime() - cpu;
            elapsed[2] = THREADS.getTotalThreadAllocatedBytes() - allocated;
            return null;
        };
        // Read outside the timed section (reading /proc takes about a millisecond) and on this platform thread: a
        // virtual thread that reads a file may have its scheduler start a carrier to stand in for the blocked one.
        KernelCounters.Snapshot kernelBefore = KernelCounters.now();
        if (virtualCaller) {
            onVirtualThread(body);
        } else {
            body.call();
        }
        KernelCounters.Snapshot kernelAfter = KernelCounters.now();
        checkComplete(client, plan, outputs);
        return new double[] {plan.segmentCount() / (elapsed[0] / 1e9), tier2.dials() / (double) plan.segmentCount(),
                elapsed[1] / 1e3 / plan.segmentCount(), elapsed[2] / (double) plan.segmentCount(),
                kernelAfter.kernelPercentSince(kernelBefore),
                kernelAfter.switchesSince(kernelBefore) * 1e3 / plan.segmentCount()};
    }

    /**
     * {@code requests} requests of {@code plan} at once, each on its own virtual thread, all released together.
     * Figures: wall time until the last ended (ms), peak used heap sampled every millisecond (MiB, garbage
     * included), bytes allocated by the JVM's threads meanwhile (MiB).
     */
    static double[] manyRequests(Runner runner, int requests, RequestPlan plan) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> callers = new ArrayList<>(requests);
        for (int i = 0; i < requests; i++) {
            String id = "r" + i;
            callers.add(Thread.ofVirtual().start(() -> {
                InMemoryOutputStore outputs = new InMemoryOutputStore();
                InstantTier2 tier2 = new InstantTier2(plan.lastStage(), outputs, 0);
                CheckingConsumer client = new CheckingConsumer(plan.startSegment(), outputs);
                try {
                    go.await();
                    runner.run(id, plan, tier2, outputs, client);
                    checkComplete(client, plan, outputs);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }));
        }
        HeapWatch heap = HeapWatch.start(Duration.ofMillis(1));
        long allocatedBefore = THREADS.getTotalThreadAllocatedBytes();
        long start = System.nanoTime();
        go.countDown();
        for (Thread caller : callers) {
            caller.join();
        }
        long wall = System.nanoTime() - start;
        long allocated = THREADS.getTotalThreadAllocatedBytes() - allocatedBefore;
        long[] peak = heap.stop();
        if (failure.get() != null) {
            throw new IllegalStateException("a request failed", failure.get());
        }
        return new double[] {wall / 1e6, peak[0] / MIB, allocated / MIB};
    }

    private static final double MIB = 1024.0 * 1024.0;

    /**
     * One long request of {@code plan} on this thread; every {@code checkpoint} segments the client measures the live
     * heap after a full collection, and the time that takes is not counted. Figures: segments per second, the live
     * heap's spread over the checkpoints (max − min, MiB), the largest live heap at a checkpoint (MiB).
     */
    static double[] longRequest(Runner runner, RequestPlan plan, long checkpoint) throws Exception {
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        InstantTier2 tier2 = new InstantTier2(plan.lastStage(), outputs, 0);
        long[] gcNanos = new long[1];
        List<Long> live = new ArrayList<>();
        CheckingConsumer client = new CheckingConsumer(plan.startSegment(), outputs, checkpoint, delivered -> {
            long before = System.nanoTime();
            live.add(HeapWatch.liveBytesAfterGc());
            gcNanos[0] += System.nanoTime() - before;
        });
        long start = System.nanoTime();
        runner.run("long", plan, tier2, outputs, client);
        long elapsed = System.nanoTime() - start - gcNanos[0];
        checkComplete(client, plan, outputs);
        long min = live.stream().mapToLong(Long::longValue).min().orElse(0);
        long max = live.stream().mapToLong(Long::longValue).max().orElse(0);
        return new double[] {plan.segmentCount() / (elapsed / 1e9), (max - min) / MIB, max / MIB};
    }

    private static void checkComplete(CheckingConsumer client, RequestPlan plan, InMemoryOutputStore outputs) {
        if (client.delivered() != plan.segmentCount()) {
            throw new IllegalStateException(client.delivered() + " of " + plan.segmentCount() + " segments delivered");
        }
        if (outputs.size() != 0) {
            throw new IllegalStateException(outputs.size() + " outputs left in the store");
        }
    }

    private static void onVirtualThread(Callable<Void> body) throws Exception {
        AtomicReference<Exception> thrown = new AtomicReference<>();
        Thread caller = Thread.ofVirtual().name("cost-caller").start(() -> {
            try {
                body.call();
            } catch (Exception e) {
                thrown.set(e);
            }
        });
        caller.join();
        if (thrown.get() != null) {
            throw thrown.get();
        }
    }
}
