package dev.orderly.testing;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.Script.Action;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * A fake tier2 for one request whose every dial does what the test scripted for its unit: refused {@code n} times,
 * fail, time out, fail fatally, throw any error, run until released, block the dial, or lose its output (see
 * {@link Script}). A unit with no script, or whose script is used up, asks the {@link DialRule} if there is one, and
 * otherwise succeeds at once. A successful last-stage job writes {@code "output <segment>"} (UTF-8) to
 * {@link #outputs()}, the store to give the request, or to the test's own {@link OutputSink}; a lost output is not in
 * either afterwards (an output an earlier attempt wrote to the test's sink is removed with
 * {@link OutputSink#delete(long)}).
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
 * closed, {@link #doubleCloses()} calls closed more than once, {@link #blocked()} threads held in a dial or a job: all
 * should be 0 after a request. At each dial the tier2 also checks the stage rule (a job of stage {@code k} is dialed
 * only once every lower segment has stage {@code k - 1} done here) and lists breaks in
 * {@link #dependencyViolations()}; a segment a request with resume delivers from the store never ran here, so the
 * stage-{@code k} dials above it are listed too. A call's {@code await()} is taken once, as the engine calls it; a
 * second one throws {@link IllegalStateException} naming the job and changes nothing.
 *
 * <p>Invariants: {@code scripts} holds, per unit, the steps its next dials will use; it is guarded by {@code lock},
 * and a step is taken from it exactly once. {@code highestDone} only grows per segment (a concurrent map, merged with
 * {@code max}). This class is thread-safe: a script may be added while a request runs (it applies from the unit's
 * next dial on).
 */
public final class ScriptedTier2 implements Tier2Client {

    /**
     * Decides what one dial does when its unit has no script left: the first step of the script it returns (a
     * {@code then...} tail is ignored). It may block, on a latch say, to hold the dial; it runs on the dialing thread.
     */
    @FunctionalInterface
    public interface DialRule {
        /**
         * The script whose first step this dial of {@code job} takes; never null ({@link Script#succeed()} for a dial
         * that just gets in and succeeds).
         */
        Script next(Job job) throws InterruptedException;
    }

    private static final Action SUCCEED = new Action(Script.Step.SUCCEED, null);

    private final RequestPlan plan;
    private final int lastStage;
    private final MemoryOutputs outputs = new MemoryOutputs();
    private final OutputSink sink;
    private final DialRule rule;
    private final EventLog log = new EventLog();
    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final Map<JobKey, Script.Steps> scripts = new HashMap<>();
    private final Map<Long, Integer> highestDone = new ConcurrentHashMap<>();
    // guarded by lock: per stage j, a segment every segment below which (from the plan's start) has stage j done here;
    // it only grows, as highestDone does
    private final Map<Integer, Long> doneBelow = new HashMap<>();
    // segments whose output this tier2 wrote through the sink and has not lost since
    private final Set<Long> written = ConcurrentHashMap.newKeySet();
    private final List<String> dependencyViolations = new CopyOnWriteArrayList<>();
    private final AtomicInteger openCalls = new AtomicInteger();
    private final AtomicInteger doubleCloses = new AtomicInteger();
    private final AtomicInteger cancelledCalls = new AtomicInteger();
    private final AtomicInteger succeededCalls = new AtomicInteger();
    private final AtomicInteger blocked = new AtomicInteger();

    /** A tier2 for a request of {@code plan}, with no script yet: every unit succeeds at once. */
    public ScriptedTier2(RequestPlan plan) {
        this(plan, null, job -> Script.succeed());
    }

    /**
     * A tier2 for a request of {@code plan} that writes outputs to {@code sink} (not to {@link #outputs()}) and asks
     * {@code rule} what each dial of a unit without a script does.
     */
    public ScriptedTier2(RequestPlan plan, OutputSink sink, DialRule rule) {
        this.plan = Objects.requireNonNull(plan, "plan");
        this.lastStage = plan.stages() - 1;
        this.sink = sink == null ? outputs : sink;
        this.rule = Objects.requireNonNull(rule, "rule");
    }

    /**
     * Sets what the next dials of {@code key} do, replacing whatever was left of an earlier script for it.
     *
     * @return this tier2
     * @throws IllegalArgumentException if {@code key} is not a unit of the plan (its segment outside
     *         {@code [startSegment, endSegment)} or its stage past the last): the request would never dial it
     */
    public ScriptedTier2 script(JobKey key, Script script) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(script, "script");
        if (key.segment() < plan.startSegment() || key.segment() >= plan.endSegment() || key.stage() > lastStage) {
            // A script no dial would ever take is a fault the test meant to inject and would silently go without.
            throw new IllegalArgumentException("key must be a unit of the plan, segments " + plan.startSegment()
                    + " to " + (plan.endSegment() - 1) + " and stages 0 to " + lastStage + ", was " + key);
        }
        lock.lock();
        try {
            scripts.put(key, script.steps());
        } finally {
            lock.unlock();
        }
        return this;
    }

    /** The store the tier2 writes outputs to, unless it was made with a sink; give it to the request. */
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

    /** Calls whose {@code await} returned normally (their output written, or lost as scripted). */
    public int succeededCalls() {
        return succeededCalls.get();
    }

    /** Calls closed before their job ended on the tier2: the engine cancelled them. */
    public int cancelledCalls() {
        return cancelledCalls.get();
    }

    /** Threads held right now in a dial ({@link Script#holdDial}) or a running job ({@link Script#hold}). */
    public int blocked() {
        return blocked.get();
    }

    /** Each dial that broke the stage rule, in words; empty if none did. */
    public List<String> dependencyViolations() {
        return List.copyOf(dependencyViolations);
    }

    /** What a successful last-stage job of {@code segment} writes: {@code "output <segment>"} in UTF-8. */
    public static byte[] outputOf(long segment) {
        return MemoryOutputs.outputOf(segment);
    }

    @Override
    public Tier2Call dial(Job job) throws Tier2Exception, InterruptedException {
        Objects.requireNonNull(job, "job");
        log.record(Tier2Event.Type.DIALED, job, -1);
        checkDependencies(job.key());
        Action action = nextAction(job);
        switch (action.step()) {
            case REFUSE -> {
                log.record(Tier2Event.Type.REFUSED, job, -1);
                throw Tier2Exception.refused("scripted refusal of " + job);
            }
            case UNREACHABLE -> {
                log.record(Tier2Event.Type.UNREACHABLE, job, -1);
                throw Tier2Exception.unreachable("scripted: no tier2 reachable for " + job);
            }
            case THROW_ON_DIAL -> {
                log.record(Tier2Event.Type.DIAL_THREW, job, -1);
                throw scripted(action.error());
            }
            case HOLD_DIAL -> {
                log.record(Tier2Event.Type.HELD, job, -1);
                hold(action.hold(), job, () -> false);
                return admit(job, SUCCEED);
            }
            default -> {
                return admit(job, action);
            }
        }
    }

    private Tier2Call admit(Job job, Action action) {
        openCalls.incrementAndGet();
        log.record(Tier2Event.Type.ADMITTED, job, -1);
        return new Call(job, action);
    }

    private Action nextAction(Job job) throws InterruptedException {
        lock.lock();
        try {
            Script.Steps left = scripts.get(job.key());
            Action next = left == null ? null : left.poll();
            if (next != null) {
                return next;
            }
        } finally {
            lock.unlock();
        }
        Script script;
        try {
            script = rule.next(job);
        } catch (InterruptedException e) {
            // A rule held on a latch and cancelled: the dial's outcome, as for a held dial.
            log.record(Tier2Event.Type.INTERRUPTED, job, -1);
            throw e;
        } catch (RuntimeException | Error e) {
            log.record(Tier2Event.Type.DIAL_THREW, job, -1);
            throw e;
        }
        if (script == null) {
            log.record(Tier2Event.Type.DIAL_THREW, job, -1);
            throw new NullPointerException("the DialRule returned no Script for " + job.key() + " (attempt "
                    + job.attempt() + "); return one, such as Script.succeed()");
        }
        Action ruled = script.first();
        return ruled == null ? SUCCEED : ruled;
    }

    /**
     * Lists the dial of {@code key} if a lower segment lacks stage {@code key.stage() - 1}. Amortised O(1) per dial:
     * {@code doneBelow} keeps, per stage, where the last look found the first segment without it, and the look goes
     * on from there (it scanned every lower segment at every dial, a request's dials together O(segments^2), and a
     * stage-0 dial of a far segment, which needs nothing, scanned them all for nothing).
     */
    private void checkDependencies(JobKey key) {
        int needed = key.stage() - 1;
        if (needed < 0) {
            return; // stage 0 waits for no other unit
        }
        long s;
        int done = -1;
        lock.lock();
        try {
            s = doneBelow.getOrDefault(needed, plan.startSegment());
            while (s < key.segment() && (done = highestDone.getOrDefault(s, -1)) >= needed) {
                s++;
            }
            doneBelow.put(needed, s);
        } finally {
            lock.unlock();
        }
        if (s < key.segment()) {
            dependencyViolations.add(key + " dialed while segment " + s + " had stages done only up to " + done);
        }
    }

    private void hold(Hold hold, Job job, BooleanSupplier stop) throws InterruptedException {
        blocked.incrementAndGet();
        try {
            hold.await(stop);
        } catch (InterruptedException e) {
            log.record(Tier2Event.Type.INTERRUPTED, job, -1);
            throw e;
        } finally {
            blocked.decrementAndGet();
        }
    }

    /**
     * The scripted error as what it is: returns a {@link Tier2Exception} for the caller to throw, throws any other
     * (a checked error a tier2 can not throw arrives wrapped in an {@link IllegalStateException}).
     */
    private static Tier2Exception scripted(Exception error) throws InterruptedException {
        switch (error) {
            case Tier2Exception t -> {
                return t;
            }
            case InterruptedException i -> throw i;
            case RuntimeException r -> throw r;
            default -> throw new IllegalStateException(error);
        }
    }

    /**
     * One admitted job. Used by the job's own thread only, except {@code close}, which is idempotent. {@code state}
     * goes once from OPEN to ENDED (await ended) or to CANCELLED (closed first), whichever comes first; {@code awaited}
     * once from false to true, at the first {@code await}: a second one is refused before it touches anything.
     */
    private final class Call implements Tier2Call {
        private static final int OPEN = 0;
        private static final int ENDED = 1;
        private static final int CANCELLED = 2;

        private final Job job;
        private final Action action;
        private final AtomicInteger closes = new AtomicInteger();
        private final AtomicInteger state = new AtomicInteger(OPEN);
        private final AtomicBoolean awaited = new AtomicBoolean();

        Call(Job job, Action action) {
            this.job = job;
            this.action = action;
        }

        @Override
        public void await() throws Tier2Exception, InterruptedException {
            if (!awaited.compareAndSet(false, true)) {
                throw SecondAwait.refused(job);
            }
            if (action.step() == Script.Step.HOLD) {
                log.record(Tier2Event.Type.HELD, job, -1);
                // A close ends the held job as it ends any other: the hold lets this call go once it is closed.
                hold(action.hold(), job, () -> state.get() == CANCELLED);
            }
            if (!state.compareAndSet(OPEN, ENDED)) {
                log.record(Tier2Event.Type.INTERRUPTED, job, -1);
                throw new InterruptedException("call closed before the job ended");
            }
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
                case THROW_ON_AWAIT -> {
                    log.record(Tier2Event.Type.AWAIT_THREW, job, -1);
                    throw scripted(action.error());
                }
                case LOSE_OUTPUT -> {
                    long segment = job.key().segment();
                    // The kit's own store is emptied whatever wrote it. A test's sink is asked to delete only what
                    // an earlier attempt wrote through it: a write-only sink (store::write) that never saw the
                    // segment needs no delete, and one that did must not keep the output the engine would read as
                    // the lost job's.
                    // Only a last-stage job has an output in the store: a lower stage has none to lose, and the
                    // segment's output there is its last stage's, another unit's, which may have succeeded already.
                    if (job.key().stage() == lastStage) {
                        if (sink == outputs) {
                            outputs.delete(segment);
                        } else if (written.remove(segment)) {
                            sink.delete(segment);
                        }
                    }
                    done();
                    log.record(Tier2Event.Type.OUTPUT_LOST, job, -1);
                }
                default -> {
                    if (job.key().stage() == lastStage) {
                        sink.write(job.key().segment(), outputOf(job.key().segment()));
                        written.add(job.key().segment());
                    }
                    done();
                    log.record(Tier2Event.Type.SUCCEEDED, job, -1);
                }
            }
        }

        private void done() {
            highestDone.merge(job.key().segment(), job.key().stage(), Math::max);
            succeededCalls.incrementAndGet();
        }

        @Override
        public void close() {
            if (closes.getAndIncrement() == 0) {
                boolean cancelled = state.compareAndSet(OPEN, CANCELLED);
                if (cancelled) {
                    cancelledCalls.incrementAndGet();
                }
                openCalls.decrementAndGet();
                log.record(Tier2Event.Type.CLOSED, job, -1);
                if (cancelled && action.step() == Script.Step.HOLD) {
                    // After CLOSED is logged, so that the job's INTERRUPTED follows it.
                    action.hold().wake();
                }
            } else {
                doubleCloses.incrementAndGet();
            }
        }
    }
}
