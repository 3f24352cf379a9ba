package dev.orderly.testing;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Queue;

/**
 * What a {@link ScriptedTier2} does with the successive dials of one unit: each step is used by one dial, in order;
 * once the steps are used up, every further dial succeeds. Immutable: each {@code then...} returns a new script.
 *
 * <pre>{@code
 * Script.refuse(3).thenFail().thenSucceed()      // three refusals, a failure after admission, then success
 * Script.hold(hold)                              // admitted, then runs until hold.release() or cancellation
 * Script.loseOutput()                            // succeeds but the output is not in the store: the engine re-runs it
 * Script.holdDial(hold)                          // dial blocks until hold.release() (then admitted) or cancellation
 * Script.block()                                 // admitted, then runs until the engine cancels it
 * Script.throwOnDial(new IllegalStateException("client bug"))   // any error, from dial or from await
 * }</pre>
 */
public final class Script {

    /** What one dial does. */
    enum Step {
        /** Admitted, then succeeds; a last-stage job writes its output. */
        SUCCEED,
        /** {@code dial} throws REFUSED. */
        REFUSE,
        /** {@code dial} throws UNREACHABLE. */
        UNREACHABLE,
        /** Admitted, then {@code await} throws RETRYABLE. */
        FAIL,
        /** Admitted, then {@code await} throws EXECUTION_TIMEOUT. */
        TIME_OUT,
        /** Admitted, then {@code await} throws FATAL. */
        FATAL,
        /** Admitted, then {@code await} blocks until the hold is released (then succeeds) or the thread interrupted. */
        HOLD,
        /** Admitted, then succeeds without an output in the store. */
        LOSE_OUTPUT,
        /** {@code dial} blocks until the hold is released (then the job is admitted and succeeds) or interrupted. */
        HOLD_DIAL,
        /** {@code dial} throws the action's error. */
        THROW_ON_DIAL,
        /** Admitted, then {@code await} throws the action's error. */
        THROW_ON_AWAIT
    }

    /** One step, with its hold ({@link Step#HOLD}, {@link Step#HOLD_DIAL}) or its error (the {@code THROW} steps). */
    record Action(Step step, Hold hold, Exception error) {
        Action(Step step, Hold hold) {
            this(step, hold, null);
        }
    }

    /**
     * One step and how many dials in a row take it, {@code times >= 1}: a script of {@code refuse(Integer.MAX_VALUE)}
     * is one run, not two billion steps.
     */
    record Run(Action action, int times) {
    }

    /**
     * The steps a unit's next dials take, used up one dial at a time. Not thread-safe: its owner guards it
     * ({@link ScriptedTier2} under its lock).
     */
    static final class Steps {
        private final Queue<Run> runs;
        // dials the head run has served already
        private int usedOfHead;

        private Steps(List<Run> runs) {
            this.runs = new ArrayDeque<>(runs);
        }

        /** The step of the next dial, or null once the script is used up. */
        Action poll() {
            Run head = runs.peek();
            if (head == null) {
                return null;
            }
            if (++usedOfHead == head.times()) {
                runs.remove();
                usedOfHead = 0;
            }
            return head.action();
        }
    }

    private final List<Run> runs;

    private Script(List<Run> runs) {
        this.runs = List.copyOf(runs);
    }

    /** A script that succeeds at once. */
    public static Script succeed() {
        return new Script(List.of()).then(Step.SUCCEED, 1, null);
    }

    /** Refused {@code times} times (nothing ran), then whatever follows. */
    public static Script refuse(int times) {
        return new Script(List.of()).then(Step.REFUSE, times, null);
    }

    /** Unreachable {@code times} times (nothing ran), then whatever follows. */
    public static Script unreachable(int times) {
        return new Script(List.of()).then(Step.UNREACHABLE, times, null);
    }

    /** Admitted, then fails (RETRYABLE). */
    public static Script fail() {
        return new Script(List.of()).then(Step.FAIL, 1, null);
    }

    /** Admitted, then times out (EXECUTION_TIMEOUT). */
    public static Script timeOut() {
        return new Script(List.of()).then(Step.TIME_OUT, 1, null);
    }

    /** Admitted, then fails fatally (FATAL): the request fails. */
    public static Script fatal() {
        return new Script(List.of()).then(Step.FATAL, 1, null);
    }

    /**
     * Admitted, then runs until {@code hold} is released (then succeeds) or the engine cancels it (closes its call or
     * interrupts its thread).
     */
    public static Script hold(Hold hold) {
        return new Script(List.of()).then(Step.HOLD, 1, Objects.requireNonNull(hold, "hold"));
    }

    /**
     * Admitted, succeeds, and the output is not in the store: one an earlier attempt wrote is removed, from a test's
     * own {@link OutputSink} with its {@link OutputSink#delete(long) delete}. Only a last-stage job has an output; for
     * a stage below it, the segment's output (its last stage's) is left as it is.
     */
    public static Script loseOutput() {
        return new Script(List.of()).then(Step.LOSE_OUTPUT, 1, null);
    }

    /** {@code dial} blocks until {@code hold} is released (then admitted and succeeds) or the engine cancels it. */
    public static Script holdDial(Hold hold) {
        return new Script(List.of()).then(Step.HOLD_DIAL, 1, Objects.requireNonNull(hold, "hold"));
    }

    /** {@code dial} blocks until the engine cancels it (interrupts its thread). */
    public static Script blockDial() {
        return holdDial(new Hold());
    }

    /** Admitted, then runs until the engine cancels it (closes its call or interrupts its thread). */
    public static Script block() {
        return hold(new Hold());
    }

    /**
     * {@code dial} throws {@code error}: a {@link dev.orderly.api.Tier2Exception} of any kind, an
     * {@link InterruptedException}, or a {@link RuntimeException} (the engine counts it as FATAL); any other checked
     * exception arrives wrapped in an {@link IllegalStateException}.
     */
    public static Script throwOnDial(Exception error) {
        return new Script(List.of(
                new Run(new Action(Step.THROW_ON_DIAL, null, Objects.requireNonNull(error, "error")), 1)));
    }

    /** Admitted, then {@code await} throws {@code error} (as {@link #throwOnDial} says). */
    public static Script throwOnAwait(Exception error) {
        return new Script(List.of(
                new Run(new Action(Step.THROW_ON_AWAIT, null, Objects.requireNonNull(error, "error")), 1)));
    }

    /** Then succeeds (as every dial after the script does anyway). */
    public Script thenSucceed() {
        return then(Step.SUCCEED, 1, null);
    }

    /** Then refused {@code times} times. */
    public Script thenRefuse(int times) {
        return then(Step.REFUSE, times, null);
    }

    /** Then unreachable {@code times} times. */
    public Script thenUnreachable(int times) {
        return then(Step.UNREACHABLE, times, null);
    }

    /** Then admitted and fails (RETRYABLE). */
    public Script thenFail() {
        return then(Step.FAIL, 1, null);
    }

    /** Then admitted and times out (EXECUTION_TIMEOUT). */
    public Script thenTimeOut() {
        return then(Step.TIME_OUT, 1, null);
    }

    /** Then admitted and fails fatally (FATAL). */
    public Script thenFatal() {
        return then(Step.FATAL, 1, null);
    }

    /** Then admitted and held until {@code hold} is released. */
    public Script thenHold(Hold hold) {
        return then(Step.HOLD, 1, Objects.requireNonNull(hold, "hold"));
    }

    /** Then admitted, succeeds, and the output is lost. */
    public Script thenLoseOutput() {
        return then(Step.LOSE_OUTPUT, 1, null);
    }

    /** The steps, for one unit's dials, in order. */
    Steps steps() {
        return new Steps(runs);
    }

    /** The step of the first dial, or null if the script has none ({@code refuse(0)}). */
    Action first() {
        return runs.isEmpty() ? null : runs.getFirst().action();
    }

    private Script then(Step step, int times, Hold hold) {
        if (times < 0) {
            throw new IllegalArgumentException("times must be >= 0, was " + times);
        }
        if (times == 0) {
            return this;
        }
        List<Run> more = new ArrayList<>(runs);
        more.add(new Run(new Action(step, hold), times));
        return new Script(more);
    }

    @Override
    public String toString() {
        List<String> steps = new ArrayList<>();
        for (Run run : runs) {
            // a long run is shown once with its count, so that printing a script costs no memory per dial
            steps.add(run.times() <= 3 ? String.join(", ", Collections.nCopies(run.times(), run.action().step().name()))
                    : run.action().step().name() + " x" + run.times());
        }
        return "Script[" + String.join(", ", steps) + "]";
    }
}
