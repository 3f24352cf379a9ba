package dev.orderly.engine;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake fleet for tests: every dial asks a {@link Script} what happens to it. A successful last-stage job writes
 * {@code "output N"} to the store. It records every dial, counts open calls, and checks the stage dependency rule at
 * each dial against the units it has completed so far.
 */
final class StubTier2 implements Tier2Client {

    /** What one dial does. */
    sealed interface Step {
    }

    /** Admitted; {@code await} returns after writing the output (if {@code writesOutput} and last stage). */
    record Ok(boolean writesOutput) implements Step {
    }

    /** {@code dial} throws. */
    record DialThrows(Exception error) implements Step {
    }

    /** Admitted; {@code await} throws. */
    record AwaitThrows(Exception error) implements Step {
    }

    /** Admitted; {@code await} blocks until the thread is interrupted. */
    record AwaitBlocks() implements Step {
    }

    /** {@code dial} blocks until the thread is interrupted. */
    record DialBlocks() implements Step {
    }

    static final Step OK = new Ok(true);
    static final Step OK_WITHOUT_OUTPUT = new Ok(false);
    static final Step AWAIT_BLOCKS = new AwaitBlocks();
    static final Step DIAL_BLOCKS = new DialBlocks();

    static Step refused() {
        return new DialThrows(Tier2Exception.refused("at capacity"));
    }

    static Step unreachable() {
        return new DialThrows(Tier2Exception.unreachable("no healthy upstream"));
    }

    static Step awaitThrows(Exception e) {
        return new AwaitThrows(e);
    }

    static Step dialThrows(Exception e) {
        return new DialThrows(e);
    }

    /** Decides what a dial does. May block (e.g. on a latch) to hold a job. */
    @FunctionalInterface
    interface Script {
        Step step(Job job) throws InterruptedException;
    }

    private final RequestPlan plan;
    private final InMemoryOutputStore store;
    private final Script script;
    private final List<Job> dials = new CopyOnWriteArrayList<>();
    private final List<String> dependencyViolations = new CopyOnWriteArrayList<>();
    private final Map<Long, Integer> highestDone = new ConcurrentHashMap<>();
    private final AtomicInteger openCalls = new AtomicInteger();
    private final AtomicInteger doubleCloses = new AtomicInteger();
    private final AtomicInteger cancelledCalls = new AtomicInteger();
    private final AtomicInteger succeededCalls = new AtomicInteger();
    private static final int OPEN = 0;
    private static final int ENDED = 1;
    private static final int CANCELLED = 2;
    private final AtomicInteger blocked = new AtomicInteger();
    private final CountDownLatch never = new CountDownLatch(1);

    StubTier2(RequestPlan plan, InMemoryOutputStore store, Script script) {
        this.plan = plan;
        this.store = store;
        this.script = script;
    }

    static byte[] outputOf(long segment) {
        return ("output " + segment).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Tier2Call dial(Job job) throws Tier2Exception, InterruptedException {
        dials.add(job);
        checkDependencies(job.key());
        Step step = script.step(job);
        switch (step) {
            case DialThrows(Exception e) -> {
                switch (e) {
                    case Tier2Exception t -> throw t;
                    case RuntimeException r -> throw r;
                    case InterruptedException i -> throw i;
                    default -> throw new IllegalStateException(e);
                }
            }
            case DialBlocks() -> {
                blockUntilInterrupted();
                throw new AssertionError("unreachable");
            }
            default -> {
                openCalls.incrementAndGet();
                return new Call(job, step);
            }
        }
    }

    private void blockUntilInterrupted() throws InterruptedException {
        blocked.incrementAndGet();
        try {
            never.await();
        } finally {
            blocked.decrementAndGet();
        }
    }

    private void checkDependencies(JobKey key) {
        for (long s = plan.startSegment(); s < key.segment(); s++) {
            int done = highestDone.getOrDefault(s, -1);
            if (done < key.stage() - 1) {
                dependencyViolations.add(key + " dialed while segment " + s + " had stages done only up to " + done);
                return;
            }
        }
    }

    private final class Call implements Tier2Call {
        private final Job job;
        private final Step step;
        private boolean closed;
        /** OPEN until await ends (ENDED) or the call is closed before that (CANCELLED), whichever comes first. */
        private final java.util.concurrent.atomic.AtomicInteger state = new java.util.concurrent.atomic.AtomicInteger();

        Call(Job job, Step step) {
            this.job = job;
            this.step = step;
        }

        @Override
        public void await() throws Tier2Exception, InterruptedException {
            switch (step) {
                case Ok(boolean writesOutput) -> {
                    if (!state.compareAndSet(OPEN, ENDED)) {
                        throw new InterruptedException("call closed before the job ended");
                    }
                    JobKey key = job.key();
                    if (writesOutput && key.stage() == plan.lastStage()) {
                        store.write(key.segment(), outputOf(key.segment()));
                    }
                    highestDone.merge(key.segment(), key.stage(), Math::max);
                    succeededCalls.incrementAndGet();
                }
                case AwaitThrows(Exception e) -> {
                    if (!state.compareAndSet(OPEN, ENDED)) {
                        throw new InterruptedException("call closed before the job ended");
                    }
                    switch (e) {
                        case Tier2Exception t -> throw t;
                        case RuntimeException r -> throw r;
                        case InterruptedException i -> throw i;
                        default -> throw new IllegalStateException(e);
                    }
                }
                case AwaitBlocks() -> blockUntilInterrupted();
                default -> throw new AssertionError(step);
            }
        }

        @Override
        public void close() {
            if (closed) {
                doubleCloses.incrementAndGet();
                return;
            }
            closed = true;
            if (state.compareAndSet(OPEN, CANCELLED)) {
                cancelledCalls.incrementAndGet();
            }
            openCalls.decrementAndGet();
        }
    }

    List<Job> dials() {
        return dials;
    }

    long dialsOf(JobKey key) {
        return dials.stream().filter(j -> j.key().equals(key)).count();
    }

    List<String> dependencyViolations() {
        return dependencyViolations;
    }

    int openCalls() {
        return openCalls.get();
    }

    /** Calls whose await returned normally: their job is done. */
    int succeededCalls() {
        return succeededCalls.get();
    }

    /** Calls closed before their job ended on the tier2: the engine cancelled them. */
    int cancelledCalls() {
        return cancelledCalls.get();
    }

    int doubleCloses() {
        return doubleCloses.get();
    }

    /** Threads blocked in {@code dial} or {@code await} right now. */
    int blocked() {
        return blocked.get();
    }
}
