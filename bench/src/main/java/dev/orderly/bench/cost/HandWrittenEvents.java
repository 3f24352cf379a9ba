package dev.orderly.bench.cost;

import dev.orderly.api.JobKey;
import java.util.List;
import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The hand-written executor's copy of the engine's per-job JFR events, for the floor of the engine's "recording,
 * Orderly's events on" figure: the same three event shapes (a dial, an admitted job's run, a delivered segment), with
 * the same fields, begun and committed at the same points and from the same threads (a dial and a run on the job's own
 * virtual thread, a delivery on the thread that delivers). What recording them costs the hand-written executor is what
 * recording these events costs any executor of instant jobs, before any bookkeeping of the engine's own.
 *
 * <p>Each event is made only when its type is enabled, as the engine's are. Stateless; safe from any thread.
 */
final class HandWrittenEvents {

    /** The three event types, to enable in a recording. */
    static final List<String> NAMES = List.of("dev.orderly.bench.Dial", "dev.orderly.bench.JobRun",
            "dev.orderly.bench.SegmentDelivered");

    private HandWrittenEvents() {
    }

    /** A dial's or a run's fields, as the engine's events have them, and its end. */
    abstract static class JobEvent extends Event {
        String requestId;
        long segment;
        int stage;
        int attempt;
        String outcome;
        String message;

        /** Ends and, if it passes the recording's settings, commits this event. */
        final void ended(String requestId, JobKey key, int attempt, String outcome, String message) {
            end();
            if (shouldCommit()) {
                this.requestId = requestId;
                this.segment = key.segment();
                this.stage = key.stage();
                this.attempt = attempt;
                this.outcome = outcome;
                this.message = message;
                commit();
            }
        }
    }

    @Name("dev.orderly.bench.Dial")
    @Label("Dial (hand-written)")
    @Category("Orderly bench")
    @StackTrace(false)
    static final class Dial extends JobEvent {
    }

    @Name("dev.orderly.bench.JobRun")
    @Label("Job Run (hand-written)")
    @Category("Orderly bench")
    @StackTrace(false)
    static final class JobRun extends JobEvent {
    }

    @Name("dev.orderly.bench.SegmentDelivered")
    @Label("Segment Delivered (hand-written)")
    @Category("Orderly bench")
    @StackTrace(false)
    static final class SegmentDelivered extends Event {
        String requestId;
        long segment;
    }

    /** A dial's event, begun; null when its type is not enabled. */
    static Dial dialBegun() {
        Dial dial = new Dial();
        if (!dial.isEnabled()) {
            return null;
        }
        dial.begin();
        return dial;
    }

    /** Ends and, if it passes the recording's settings, commits {@code dial} (null: nothing). */
    static void dialEnded(Dial dial, String requestId, JobKey key, int attempt, String outcome, String message) {
        if (dial != null) {
            dial.ended(requestId, key, attempt, outcome, message);
        }
    }

    /** An admitted job's run event, begun; null when its type is not enabled. */
    static JobRun runBegun() {
        JobRun run = new JobRun();
        if (!run.isEnabled()) {
            return null;
        }
        run.begin();
        return run;
    }

    /** Ends and, if it passes the recording's settings, commits {@code run} (null: nothing). */
    static void runEnded(JobRun run, String requestId, JobKey key, int attempt, String outcome, String message) {
        if (run != null) {
            run.ended(requestId, key, attempt, outcome, message);
        }
    }

    /** The next delivery's event, begun now (its duration is the client's wait); null when its type is not enabled. */
    static SegmentDelivered deliveryBegun() {
        SegmentDelivered delivery = new SegmentDelivered();
        if (!delivery.isEnabled()) {
            return null;
        }
        delivery.begin();
        return delivery;
    }

    /** Ends and, if it passes the recording's settings, commits {@code delivery} (null: nothing). */
    static void delivered(SegmentDelivered delivery, String requestId, long segment) {
        if (delivery == null) {
            return;
        }
        delivery.end();
        if (delivery.shouldCommit()) {
            delivery.requestId = requestId;
            delivery.segment = segment;
            delivery.commit();
        }
    }
}
