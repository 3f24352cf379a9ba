package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.SegmentConsumer;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Hands each segment's output to the client, strictly in order and exactly once: a segment counts as delivered
 * when the client's {@code accept} has returned.
 *
 * <p>For each segment it waits until the segment's last stage is DONE, reads the output and calls the client. An
 * output missing after its job succeeded sends the unit back to PENDING; its new job, being the lowest segment,
 * launches first. After {@value #MAX_RERUNS} re-runs of one segment the request fails. A client that throws fails
 * the request, its exception kept as the cause.
 *
 * <p>Runs on one thread, the walker subtask of the request; the client is therefore called one segment at a time.
 */
final class OutputWalker {

    /** Re-runs of one segment's missing output before the request fails. */
    static final int MAX_RERUNS = 3;

    private static final Logger LOG = LoggerFactory.getLogger(OutputWalker.class);

    private final String requestId;
    private final RequestPlan plan;
    private final OutputStore outputs;
    private final SegmentConsumer client;
    private final Scheduler scheduler;
    private final RequestCounters counters;
    private final RequestListener listener;
    private final Deadline deadline;
    private final boolean resume;

    OutputWalker(String requestId, RequestPlan plan, OutputStore outputs, SegmentConsumer client, Scheduler scheduler,
            RequestCounters counters, RequestListener listener, Deadline deadline, boolean resume) {
        this.deadline = deadline;
        this.resume = resume;
        this.requestId = requestId;
        this.plan = plan;
        this.outputs = outputs;
        this.client = client;
        this.scheduler = scheduler;
        this.counters = counters;
        this.listener = listener;
    }

    /**
     * Delivers every segment of the plan, or stops early (returning) when the request was stopped.
     *
     * @throws RequestFailedException when an output stays missing, can not be read, or the client throws
     * @throws InterruptedException when the request was cancelled
     */
    void run() throws RequestFailedException, InterruptedException {
        MDC.put("request", requestId);
        try {
            for (long segment = plan.startSegment(); segment < plan.endSegment(); segment++) {
                MDC.put("segment", Long.toString(segment));
                if (!deliver(segment)) {
                    return;
                }
            }
        } finally {
            MDC.remove("segment");
            MDC.remove("request");
        }
    }

    /** Delivers one segment; false if the request was stopped first. */
    private boolean deliver(long segment) throws RequestFailedException, InterruptedException {
        JobKey unit = new JobKey(segment, plan.lastStage());
        int reruns = 0;
        lookUpStoredSegments();
        while (true) {
            switch (scheduler.awaitOutput(segment, deadline)) {
                case STOPPED -> {
                    return false;
                }
                case DEADLINE_PASSED -> throw deadlinePassed(segment);
                case READY -> {
                    // read it below
                }
            }
            Optional<byte[]> output = read(unit);
            if (output.isPresent()) {
                accept(segment, output.get());
                counters.delivered();
                scheduler.delivered(segment);
                listener.onSegmentDelivered(segment);
                return true;
            }
            if (reruns == MAX_RERUNS) {
                throw new RequestFailedException(unit, unit + " output missing after " + MAX_RERUNS
                        + " re-runs (" + (MAX_RERUNS + 1) + " successful jobs), giving up", null);
            }
            reruns++;
            LOG.warn("{} output missing after its job succeeded; re-run {} of {}", unit, reruns, MAX_RERUNS);
            counters.rerun();
            listener.onRerun(unit);
            scheduler.rerun(segment);
        }
    }

    /**
     * With resume: looks up, in the store, each segment that has entered the look-ahead window since the last call,
     * and tells the scheduler which are there already (they will not run). Only the window is ever looked up: the
     * scheduler launches nothing past it, and this keeps the cost per segment delivered O(1) and the memory bounded
     * by the look-ahead. The store is read again when the segment is delivered; nothing is kept in between.
     */
    private void lookUpStoredSegments() throws RequestFailedException {
        if (!resume) {
            return;
        }
        long segment;
        while ((segment = scheduler.segmentToCheck()) >= 0) {
            boolean stored = read(new JobKey(segment, plan.lastStage())).isPresent();
            if (stored) {
                counters.fromStore();
            }
            scheduler.checked(segment, stored);
        }
    }

    private RequestFailedException deadlinePassed(long segment) {
        long delivered = segment - plan.startSegment();
        return new RequestFailedException("request " + requestId + " passed its deadline of " + deadline + ": "
                + delivered + " of " + plan.segmentCount() + " segments delivered, " + scheduler.waitingFor() + ", "
                + counters.result().refusals() + " refusals", null);
    }

    private Optional<byte[]> read(JobKey unit) throws RequestFailedException {
        Optional<byte[]> output;
        try {
            output = outputs.read(unit.segment());
        } catch (IOException | RuntimeException e) {
            throw new RequestFailedException(unit, unit + " output could not be read, giving up: " + e, e);
        }
        if (output == null) {
            throw new RequestFailedException(unit, unit + " output could not be read: the OutputStore broke its"
                    + " contract, read(" + unit.segment() + ") returned null instead of an Optional", null);
        }
        return output;
    }

    private void accept(long segment, byte[] output) throws RequestFailedException, InterruptedException {
        try {
            client.accept(segment, output);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw new RequestFailedException("the client failed on segment " + segment + ": " + e, e);
        }
    }
}
