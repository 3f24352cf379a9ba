package dev.orderly.testing;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.Script.Action;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fake tier2 for one request whose every dial does what the test scripted for its unit: refused {@code n} times,
 * fail, time out, fail fatally, run until released, or lose its output (see {@link Script}). A unit with no script,
 * or whose script is used up, succeeds at once. A successful last-stage job writes {@code "output <segment>"} (UTF-8)
 * to {@link #outputs()}, the store to give the request.
 *
 * <pre>{@code
 * ScriptedTier2 tier2 = new ScriptedTier2(plan)
 *         .script(new JobKey(3, 1), Script.refuse(2).thenFail())
 *         .script(new JobKey(5, 1), Script.loseOutput());
 * RequestResult result = engine.run(Request.of(plan, tier2, tier2.outputs(), client));
 * assertEquals(List.of(DIALED, REFUSED, DIALED, REFUSED, DIALED, ADMITTED, FAILED, CLOSED, DIALED, ADMITTED,
 *         SUCCEEDED, CLOSED), tier2.log().typesOf(new JobKey(3, 1)));
 * }</pre>
 *
 * <p>Every dial and its outcome is recorded in {@link #log()}. {@link #openCalls()} counts calls admitted and not yet
 * closed, {@link #doubleCloses()} calls closed more than once: both should be 0 after a request.
 *
 * <p>Invariants: {@code scripts} holds, per unit, the steps its next dials will use; it is guarded by {@code lock},
 * and a step is taken from it exactly once. This class is thread-safe: a script may be added while a request runs
 * (it applies from the unit's next dial on).
 */
public final class ScriptedTier2 implements Tier2Client {

    private final int lastStage;
    private final MemoryOutputs outputs = new MemoryOutputs();
    private final EventLog log = new EventLog();
    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final Map<JobKey, Queue<Action>> scripts = new HashMap<>();
    private final AtomicInteger openCalls = new AtomicInteger();
    private final AtomicInteger doubleCloses = new AtomicInteger();

    /** A tier2 for a request of {@code plan}, with no script yet: every unit succeeds at once. */
    public ScriptedTier2(RequestPlan plan) {
        this.lastStage = Objects.requireNonNull(plan, "plan").stages() - 1;
    }

    /**
     * Sets what the next dials of {@code key} do, replacing whatever was left of an earlier script for it.
     *
     * @return this tier2
     */
    public ScriptedTier2 script(JobKey key, Script script) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(script, "script");
        lock.lock();
        try {
            scripts.put(key, new ArrayDeque<>(script.actions()));
        } finally {
            lock.unlock();
        }
        return this;
    }

    /** The store the tier2 writes outputs to; give it to the request. */
    public OutputStore outputs() {
        return outputs;
    }

    /** Every dial and outcome so far. */
    public EventLog log() {
        return log;
    }

    /** Calls admitted and not yet closed. */
    public int openCalls() {
        return openCalls.get();
    }

    /** Calls closed more than once (the engine closes each call exactly once). */
    public int doubleCloses() {
        return doubleCloses.get();
    }

    /** What a successful last-stage job of {@code segment} writes: {@code "output <segment>"} in UTF-8. */
    public static byte[] outputOf(long segment) {
        return MemoryOutputs.outputOf(segment);
    }

    @Override
    public Tier2Call dial(Job job) throws Tier2Exception {
        Objects.requireNonNull(job, "job");
        log.record(Tier2Event.Type.DIALED, job, -1);
        Action action = nextAction(job.key());
        switch (action.step()) {
            case REFUSE -> {
                log.record(Tier2Event.Type.REFUSED, job, -1);
                throw Tier2Exception.refused("scripted refusal of " + job);
            }
            case UNREACHABLE -> {
                log.record(Tier2Event.Type.UNREACHABLE, job, -1);
                throw Tier2Exception.unreachable("scripted: no tier2 reachable for " + job);
            }
            default -> {
                openCalls.incrementAndGet();
                log.record(Tier2Event.Type.ADMITTED, job, -1);
                return new Call(job, action);
            }
        }
    }

    private Action nextAction(JobKey key) {
        lock.lock();
        try {
            Queue<Action> left = scripts.get(key);
            Action next = left == null ? null : left.poll();
            return next != null ? next : new Action(Script.Step.SUCCEED, null);
        } finally {
            lock.unlock();
        }
    }

    /** One admitted job. Used by the job's own thread only, except {@code close}, which is idempotent. */
    private final class Call implements Tier2Call {
        private final Job job;
        private final Action action;
        private final AtomicInteger closes = new AtomicInteger();

        Call(Job job, Action action) {
            this.job = job;
            this.action = action;
        }

        @Override
        public void await() throws Tier2Exception, InterruptedException {
            switch (action.step()) {
                case FAIL -> {
                    log.record(Tier2Event.Type.FAILED, job, -1);
                    throw Tier2Exception.retryable("scripted failure of " + job, null);
                }
                case TIME_OUT -> {
                    log.record(Tier2Event.Type.TIMED_OUT, job, -1);
                    throw Tier2Exception.executionTimeout("scripted timeout of " + job);
                }
                case FATAL -> {
                    log.record(Tier2Event.Type.FATAL, job, -1);
                    throw Tier2Exception.fatal("scripted fatal failure of " + job, null);
                }
                case LOSE_OUTPUT -> {
                    outputs.delete(job.key().segment());
                    log.record(Tier2Event.Type.OUTPUT_LOST, job, -1);
                }
                case HOLD -> {
                    log.record(Tier2Event.Type.HELD, job, -1);
                    try {
                        action.hold().await();
                    } catch (InterruptedException e) {
                        log.record(Tier2Event.Type.INTERRUPTED, job, -1);
                        throw e;
                    }
                    succeed();
                }
                default -> succeed();
            }
        }

        private void succeed() {
            if (job.key().stage() == lastStage) {
                outputs.write(job.key().segment());
            }
            log.record(Tier2Event.Type.SUCCEEDED, job, -1);
        }

        @Override
        public void close() {
            if (closes.getAndIncrement() == 0) {
                openCalls.decrementAndGet();
                log.record(Tier2Event.Type.CLOSED, job, -1);
            } else {
                doubleCloses.incrementAndGet();
            }
        }
    }
}
