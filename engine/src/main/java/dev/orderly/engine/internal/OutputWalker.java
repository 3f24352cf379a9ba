package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.SegmentConsumer;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Hands each segment's output to the client, strictly in order and exactly once: a segment counts as delivered
 * when the client's {@code accept} has returned.
 *
 * <p>For each segment it waits until the segment's last stage is DONE, reads the output and calls the client. An
 * output missing after its job succeeded sends the unit back to PENDING; its new job, being the lowest segment,
 * launches first. After {@value #MAX_RERUNS} re-runs of one segment the request fails. A store or a client that
 * throws, an {@code Error} included, fails the request naming the segment's last stage, its throwable kept as the
 * cause; only a {@link VirtualMachineError} propagates as itself.
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
    private final Function<JobKey, JobKey> freeAWorker;
    private final Supplier<? extends Throwable> lastTier2Error;
    // written and read by the walker's thread only, set by run
    private StoreReadAlarm alarm;
    // The segment whose onSegmentDelivered the deadline passed in (the client had returned before it), else -1.
    private long heldByListener = -1;
    // The client returned from its last segment before the deadline: a deadline found passed since then passed in the
    // walker's own steps (the scheduler's lock, which the jobs take too) or the listener's, not in the client's.
    private boolean clientReturnedInTime;

    /**
     * @param freeAWorker has the highest job that is not on a tier2, other than the given re-run unit's own, give its
     *     worker up, and names it (null if none could): called when the client's segment is re-run with every worker
     *     taken
     * @param lastTier2Error the last {@code Tier2Exception} a job of the request heard, or null: the cause of a
     *     deadline failure
     */
    OutputWalker(String requestId, RequestPlan plan, OutputStore outputs, SegmentConsumer client, Scheduler scheduler,
            RequestCounters counters, RequestListener listener, Deadline deadline, boolean resume,
            Function<JobKey, JobKey> freeAWorker, Supplier<? extends Throwable> lastTier2Error) {
        this.freeAWorker = freeAWorker;
        this.lastTier2Error = lastTier2Error;
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
     * @throws RequestFailedException when an output stays missing, can not be read, or the client throws; also when
     *     the request was cancelled and its interrupt ended a wait of the walker's (then the scope does not report it)
     */
    void run() throws RequestFailedException {
        if (LogContext.KEPT) {
            MDC.put("request", requestId);
        }
        StoreReadAlarm readAlarm = StoreReadAlarm.forWalker(deadline, requestId);
        alarm = readAlarm;
        try (readAlarm) {
            for (long segment = plan.startSegment(); segment < plan.endSegment(); segment++) {
                if (LogContext.KEPT) {
                    MDC.put("segment", Long.toString(segment));
                }
                if (!deliver(segment)) {
                    return;
                }
            }
        } finally {
            if (LogContext.KEPT) {
                MDC.remove("segment");
                MDC.remove("request");
            }
        }
    }

    /** Delivers one segment; false if the request was stopped first. */
    private boolean deliver(long segment) throws RequestFailedException {
        JobKey unit = new JobKey(segment, plan.lastStage());
        if (Thread.currentThread().isInterrupted()) {
            // Left by code that runs on this thread (see awaitOutput), looked at before anything else: with the output
            // ready, the walker would not wait, and the interrupt would end the store's read (blamed on the store) or
            // reach the client's next call.
            throw interruptLeftOnTheThread(unit, null);
        }
        int reruns = 0;
        lookUpStoredSegments();
        while (true) {
            switch (awaitOutput(unit)) {
                case STOPPED -> {
                    return false;
                }
                case DEADLINE_PASSED -> throw deadlinePassed("", true);
                case READY -> {
                    // read it below
                }
            }
            Optional<byte[]> output = read(unit);
            if (output.isPresent()) {
                accept(segment, output.get());
                boolean aheadAtAccept = deadline.remainingNanos() > 0;
                if (resume && scheduler.successfulJobsOf(segment) == 0) {
                    // No job of its last stage ran: it came from the store (one found there and then re-run did not).
                    counters.fromStore();
                }
                counters.delivered(segment == plan.endSegment() - 1);
                scheduler.delivered(segment);
                // Read again at the listener's call: passed in the steps above, it passed in none of the user's code.
                boolean aheadAtListener = aheadAtAccept && deadline.remainingNanos() > 0;
                listener.onSegmentDelivered(segment);
                // Passed in the listener, the client idle since it returned: the failure must not say it is busy.
                heldByListener = aheadAtListener && deadline.remainingNanos() <= 0 ? segment : -1;
                clientReturnedInTime = aheadAtAccept;
                return true;
            }
            if (reruns == MAX_RERUNS) {
                int jobs = scheduler.successfulJobsOf(segment);
                throw new RequestFailedException(unit, unit + " output missing after " + MAX_RERUNS
                        + " re-runs (" + jobs + " successful job" + (jobs == 1 ? "" : "s") + "), giving up", null);
            }
            reruns++;
            // No job of a segment found in the store has run: blaming one would send the reader looking for it.
            LOG.warn("{} output {}; re-run {} of {}", unit, scheduler.successfulJobsOf(segment) == 0
                    ? "found in the store at its look-up but missing at its read" : "missing after its job succeeded",
                    reruns, MAX_RERUNS);
            counters.rerun();
            listener.onRerun(unit);
            if (scheduler.rerun(segment)) {
                // The client waits for this re-run: it must not wait for a worker behind jobs it needs later.
                JobKey withdrawn = freeAWorker.apply(unit);
                LOG.debug("{} re-run with every worker taken; {}", unit, withdrawn == null
                        ? "every job is on a tier2; the first to end, or to come off it to wait for a redial, frees"
                                + " its worker for the re-run"
                        : withdrawn + " gives its worker up");
            }
        }
    }

    /**
     * Waits for the output of {@code unit}'s segment, the client's. Only a cancellation of the request interrupts the
     * walker's thread (the deadline's alarm only inside a store call), and a failure of the walker after it is never
     * reported; so an interrupt met here was left on the thread by code that runs on it (the client, the store, the
     * listener: a client that restores an interrupt it could not handle, say), and fails the request naming the
     * segment, the interrupt kept.
     */
    private Scheduler.OutputWait awaitOutput(JobKey unit) throws RequestFailedException {
        try {
            return scheduler.awaitOutput(unit.segment(), deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw interruptLeftOnTheThread(unit, e);
        }
    }

    /**
     * The failure for an interrupt found on the walker's thread before {@code unit}'s segment: not a cancellation's
     * (after one, no failure of the walker is reported), so one left by the client, the store or the listener. The
     * interrupt stays set.
     */
    private static RequestFailedException interruptLeftOnTheThread(JobKey unit, InterruptedException cause) {
        return new RequestFailedException(unit, unit + " output could not be awaited: the output walker's thread"
                + " was interrupted, and not by a cancellation of the request (the client, the store or the"
                + " listener, which run on it, left the interrupt set)", cause);
    }

    /**
     * With resume: looks up, in the store, each segment that has entered the look-ahead window since the last call,
     * and tells the scheduler which are there already (they will not run). Only the window is ever looked up: the
     * scheduler launches nothing past it, and this keeps the cost per segment delivered O(1) and the memory bounded
     * by the look-ahead. The store is asked {@link OutputStore#contains}, and read once, when the segment is
     * delivered; nothing is kept in between.
     */
    private void lookUpStoredSegments() throws RequestFailedException {
        if (!resume) {
            return;
        }
        long segment;
        while ((segment = scheduler.segmentToCheck()) >= 0) {
            scheduler.checked(segment, contains(new JobKey(segment, plan.lastStage())));
        }
    }

    /**
     * The request's failure at its deadline. It counts what the client got (the walker may be ahead of it, looking up
     * the segment entering the look-ahead window), as the partial result does.
     */
    private RequestFailedException deadlinePassed(String during, boolean clientBusy) {
        if (clientBusy && clientReturnedInTime) {
            // "the client still on segment S" would send the reader to the wrong code, as for a store call
            clientBusy = false;
            if (heldByListener >= 0) {
                during += "; it passed while the RequestListener's onSegmentDelivered(" + heldByListener + ") ran";
            }
        }
        long delivered = scheduler.reading() - plan.startSegment();
        return new RequestFailedException("request " + requestId + " passed its deadline of " + deadline + ": "
                + delivered + " of " + plan.segmentCount() + " segments delivered, "
                + scheduler.waitingFor(clientBusy) + ", " + counters.result().refusals() + " refusals" + during,
                lastTier2Error.get());
    }

    /** A call of the store, bounded by the deadline through the alarm. */
    @FunctionalInterface
    private interface StoreCall<T> {
        T call(long segment) throws Exception;
    }

    /**
     * Calls the store for {@code unit}'s segment. Past the deadline (before the call, or while it runs: the alarm
     * interrupts it), the request fails at its deadline; a throwable from the store, an {@code Error} (an assertion in
     * a test double, a linkage problem) or an undeclared checked exception included, fails it naming the unit.
     */
    private <T> T callStore(JobKey unit, StoreCall<T> store, String done, String call) throws RequestFailedException {
        long segment = unit.segment();
        if (!alarm.enterRead()) {
            // Mostly passed while the client was busy with its last segment: the walker came here after it.
            throw deadlinePassed("; it passed before the OutputStore was asked about segment " + segment, true);
        }
        T answer = null;
        Throwable failure = null;
        try {
            answer = store.call(segment);
        } catch (VirtualMachineError e) {
            alarm.exitRead();
            throw e;
        } catch (Exception | Error e) {
            // Any checked exception too: a store written where they are not checked (Kotlin, Groovy) throws them.
            failure = e;
        }
        if (alarm.exitRead()) {
            // It passed while the walker, not the client, was busy: with the store, the client idle since its segment.
            throw deadlinePassed("; the OutputStore's " + call + " of segment " + segment
                    + " was interrupted at the deadline", false);
        }
        if (failure != null) {
            if (failure instanceof InterruptedException) {
                // Not the alarm's: the request's cancellation, which the walker's thread keeps.
                Thread.currentThread().interrupt();
            }
            // A store's IOException says what failed and where in its message (FileOutputStore's and S3OutputStore's
            // name the path or the key); "java.io.IOException: " before it named Java's class to the request's user.
            String why = failure instanceof IOException && failure.getMessage() != null ? failure.getMessage()
                    : failure.toString();
            throw new RequestFailedException(unit, unit + " output could not be " + done + ", giving up: " + why,
                    failure);
        }
        if (Thread.currentThread().isInterrupted()) {
            // Left by the store (a cancellation's is never reported): named here, before it reaches the client's call.
            throw new RequestFailedException(unit, unit + " output could not be " + done + ": the OutputStore's "
                    + call + " of segment " + segment + " left the output walker's thread interrupted, and not by a"
                    + " cancellation of the request", null);
        }
        return answer;
    }

    private boolean contains(JobKey unit) throws RequestFailedException {
        return callStore(unit, outputs::contains, "looked up", "look-up");
    }

    private Optional<byte[]> read(JobKey unit) throws RequestFailedException {
        Optional<byte[]> output = callStore(unit, outputs::read, "read", "read");
        if (output == null) {
            throw new RequestFailedException(unit, unit + " output could not be read: the OutputStore broke its"
                    + " contract, read(" + unit.segment() + ") returned null instead of an Optional", null);
        }
        return output;
    }

    private void accept(long segment, byte[] output) throws RequestFailedException {
        try {
            client.accept(segment, output);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Exception | Error e) {
            if (e instanceof InterruptedException) {
                // A cancellation's interrupt (then this failure is its echo, which no scope reports) or one of the
                // embedder's own code: either way the walker's thread keeps it, and the client's failure is named.
                Thread.currentThread().interrupt();
            }
            // Named by the segment's last stage, the unit whose output the client was given.
            JobKey unit = new JobKey(segment, plan.lastStage());
            throw new RequestFailedException(unit, unit + ": the client failed on segment " + segment + ": " + e, e);
        }
    }
}
