package dev.orderly.bench.jmh;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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
 * What the request scope costs, on whichever scope this JVM chose: the {@code StructuredTaskScope} one when the forks
 * run with {@code --enable-preview}, the plain JDK 21 one without it (or with {@code -Dorderly.scope=threads}). The
 * scope is chosen once per JVM, so compare two runs, one per flag set (commands in docs/results/performance.md).
 */
public class RequestScopeBenchmark {

    /** Whole requests whose jobs finish at once: the scope's fork, join and close dominate what is left. */
    @State(Scope.Benchmark)
    public static class SmallRequests {

        /** Segments of one stage, one job each; as many workers as segments. */
        @Param({"1", "100"})
        public int segments;

        Engine engine;
        Request request;

        @Setup(Level.Trial)
        public void setUp() {
            RequestPlan plan = new RequestPlan(0, segments, 1, segments);
            InMemoryOutputStore outputs = new InMemoryOutputStore();
            for (long segment = 0; segment < segments; segment++) {
                outputs.write(segment, new byte[] {1});
            }
            Tier2Client instant = job -> () -> { };
            engine = Orderly.engine(EngineConfig.defaults());
            request = Request.of(plan, instant, outputs, (segment, output) -> { });
        }
    }

    /** One request per measurement whose {@code jobs} jobs are all admitted and blocked in {@code await}. */
    @State(Scope.Thread)
    public static class BlockedRequest {

        @Param({"10000"})
        public int jobs;

        Thread caller;
        final AtomicReference<Throwable> outcome = new AtomicReference<>();

        @Setup(Level.Invocation)
        public void startAndBlockEveryJob() throws InterruptedException {
            CountDownLatch allBlocked = new CountDownLatch(jobs);
            CountDownLatch never = new CountDownLatch(1);
            Tier2Client blocking = job -> () -> {
                allBlocked.countDown();
                never.await();
            };
            RequestPlan plan = new RequestPlan(0, jobs, 1, jobs);
            Engine engine = Orderly.engine(EngineConfig.defaults());
            Request request = Request.of(plan, blocking, new InMemoryOutputStore(), (segment, output) -> { });
            outcome.set(null);
            caller = Thread.ofVirtual().start(() -> {
                try {
                    engine.run(request);
                    outcome.set(new IllegalStateException("run returned though every job was blocked"));
                } catch (InterruptedException expected) {
                    outcome.set(expected);
                } catch (Throwable t) {
                    outcome.set(t);
                }
            });
            if (!allBlocked.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("only " + (jobs - allBlocked.getCount()) + " of " + jobs
                        + " jobs blocked within 60 s");
            }
        }

        @TearDown(Level.Invocation)
        public void checkCancelled() {
            if (!(outcome.get() instanceof InterruptedException)) {
                throw new IllegalStateException("run did not end by the interrupt: " + outcome.get());
            }
        }
    }

    /** One whole request: open the scope, fork the walker and every job, join, close. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public RequestResult smallRequest(SmallRequests state) throws Exception {
        return state.engine.run(state.request);
    }

    /** Interrupt the caller and wait until {@code run} has thrown: every blocked job interrupted and ended. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public void cancelBlockedJobs(BlockedRequest state) throws InterruptedException {
        state.caller.interrupt();
        state.caller.join();
    }
}
