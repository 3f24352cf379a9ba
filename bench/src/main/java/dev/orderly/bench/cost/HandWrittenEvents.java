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

    @Name("dev.orderly.bench.Dial")
    @Label("Dial (hand-written)")
    @Category("Orderly bench")
    @StackTrace(false)
    static final class Dial extends Event {
        String requestId;
        long segment;
        int stage;
        int attempt;
        String outcome;
        String message;
    }

    @Name("dev.orderly.bench.JobRun")
    @Label("Job Run (hand-written)")
    @Category("Orderly bench")
    @StackTrace(false)
    static final class JobRun extends Event {
        String requestId;
        long segment;
        int stage;
        int attempt;
        String outcome;
        String message;
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
        if (dial == null) {
            return;
        }
        dial.end();
        if (dial.shouldCommit()) {
            dial.requestId = requestId;
            dial.segment = key.segment();
            dial.stage = key.stage();
            dial.attempt = attempt;
            dial.outcome = outcome;
            dial.message = message;
            dial.commit();
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
        if (run == null) {
            return;
        }
        run.end();
        if (run.shouldCommit()) {
            run.requestId = requestId;
            run.segment = key.segment();
            run.stage = key.stage();
            run.attempt = attempt;
            run.outcome = outcome;
            run.message = message;
            run.commit();
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
