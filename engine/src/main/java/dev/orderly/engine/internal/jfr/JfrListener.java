package dev.orderly.engine.internal.jfr;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import jdk.jfr.Event;

/**
 * Turns one request's listener events into JFR events ({@code dev.orderly.LaunchWait}, {@code dev.orderly.Dial},
 * {@code dev.orderly.JobRun}, {@code dev.orderly.SegmentDelivered}), then passes each event on to the next listener.
 *
 * <p>The JFR events are derived from the listener events rather than hooked into the launch queue, so the queue's
 * no-queue path carries no JFR code at all. An event is begun at the listener event that opens it (a join, a dial, an
 * admission) only when its type is enabled in a running recording, and kept per unit until the listener event that
 * closes it; with no recording running nothing is allocated, kept or committed. An event still open when the request
 * ends (its thread was interrupted in a dial or a run) is committed with the outcome {@code cancelled}.
 *
 * <p>Thread-safe. The open events live in concurrent maps keyed by unit; each unit has one live job, so a key is
 * written by one job thread at a time. With an event type disabled its map stays empty, and an empty map is not
 * touched beyond {@code isEmpty()}: a request with no recording running does no map work at all. {@code lastDelivery} is touched by the walker thread only, and by the thread
 * that ends the request after the walker has ended.
 *
 * <p>The event classes repeat their identity fields (request, segment, stage, attempt) instead of inheriting them from
 * a common superclass: {@code jfr print} lists a subclass's fields before its superclass's, which would put a job's
 * identity after its outcome.
 */
public final class JfrListener implements RequestListener {

    /** Committed events since the class was loaded: lets a test see that a disabled event is never committed. */
    private static final LongAdder COMMITTED = new LongAdder();

    private final String requestId;
    private final RequestListener next;
    private final Map<JobKey, LaunchWaitEvent> waits = new ConcurrentHashMap<>();
    private final Map<JobKey, DialEvent> dials = new ConcurrentHashMap<>();
    private final Map<JobKey, JobRunEvent> runs = new ConcurrentHashMap<>();
    private volatile SegmentDeliveredEvent lastDelivery;

    /** Records the events of request {@code requestId}, then passes each on to {@code next}. */
    public JfrListener(String requestId, RequestListener next) {
        this.requestId = requestId;
        this.next = next;
        this.lastDelivery = begun(new SegmentDeliveredEvent());
    }

    /** How many Orderly JFR events were committed in this JVM. */
    static long committed() {
        return COMMITTED.sum();
    }

    @Override
    public void onQueued(JobKey key) {
        startWait(key, "queued");
        next.onQueued(key);
    }

    @Override
    public void onDial(Job job) {
        LaunchWaitEvent wait = removed(waits, job.key());
        if (wait != null) {
            wait.end();
            if (wait.shouldCommit()) {
                wait.requestId = requestId;
                wait.segment = job.key().segment();
                wait.stage = job.key().stage();
                wait.attempt = job.attempt();
                commit(wait);
            }
        }
        DialEvent dial = begun(new DialEvent());
        if (dial != null) {
            dial.attempt = job.attempt();
            dials.put(job.key(), dial);
        }
        next.onDial(job);
    }

    @Override
    public void onAdmitted(Job job) {
        endDial(job.key(), "admitted", "");
        JobRunEvent run = begun(new JobRunEvent());
        if (run != null) {
            run.attempt = job.attempt();
            runs.put(job.key(), run);
        }
        next.onAdmitted(job);
    }

    @Override
    public void onRefused(Job job, Tier2Exception cause) {
        endAttempt(job, cause);
        startWait(job.key(), "refused");
        next.onRefused(job, cause);
    }

    @Override
    public void onFailed(Job job, Tier2Exception cause) {
        endAttempt(job, cause);
        if (cause.kind() != Tier2Exception.Kind.FATAL) {
            startWait(job.key(), "failed");
        }
        next.onFailed(job, cause);
    }

    @Override
    public void onJobDone(Job job) {
        endRun(job.key(), "done", "");
        next.onJobDone(job);
    }

    @Override
    public void onRerun(JobKey key) {
        next.onRerun(key);
    }

    @Override
    public void onAbandoned(JobKey key) {
        removed(waits, key);
        removed(dials, key);
        endRun(key, "abandoned", "");
        next.onAbandoned(key);
    }

    @Override
    public void onSegmentDelivered(long segment) {
        SegmentDeliveredEvent delivery = lastDelivery;
        if (delivery != null) {
            delivery.end();
            if (delivery.shouldCommit()) {
                delivery.requestId = requestId;
                delivery.segment = segment;
                commit(delivery);
            }
        }
        lastDelivery = begun(new SegmentDeliveredEvent());
        next.onSegmentDelivered(segment);
    }

    @Override
    public void onRequestDone(RequestResult result) {
        closeAll();
        next.onRequestDone(result);
    }

    @Override
    public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
        closeAll();
        next.onRequestFailed(soFar, failure);
    }

    @Override
    public void onRequestCancelled(RequestResult soFar) {
        closeAll();
        next.onRequestCancelled(soFar);
    }

    // ---- the events' ends

    /** The event, begun, if its type is enabled; else null (and the JIT can drop the allocation). */
    private static <E extends Event> E begun(E event) {
        if (!event.isEnabled()) {
            return null;
        }
        event.begin();
        return event;
    }

    private void startWait(JobKey key, String cause) {
        LaunchWaitEvent wait = begun(new LaunchWaitEvent());
        if (wait != null) {
            wait.cause = cause;
            // A refusal of a job that was not queued also reports the join: the refusal opened the wait already.
            waits.putIfAbsent(key, wait);
        }
    }

    /**
     * An error ends the dial in flight, or else the run it interrupted: a job has one or the other open, never both (its
     * run begins as its dial ends).
     */
    private void endAttempt(Job job, Tier2Exception cause) {
        String outcome = cause.kind().name().toLowerCase(Locale.ROOT);
        String message = String.valueOf(cause.getMessage());
        endDial(job.key(), outcome, message);
        endRun(job.key(), outcome, message);
    }

    private void endDial(JobKey key, String outcome, String message) {
        DialEvent dial = removed(dials, key);
        if (dial == null) {
            return;
        }
        dial.end();
        if (dial.shouldCommit()) {
            dial.requestId = requestId;
            dial.segment = key.segment();
            dial.stage = key.stage();
            dial.outcome = outcome;
            dial.message = message;
            commit(dial);
        }
    }

    private void endRun(JobKey key, String outcome, String message) {
        JobRunEvent run = removed(runs, key);
        if (run == null) {
            return;
        }
        run.end();
        if (run.shouldCommit()) {
            run.requestId = requestId;
            run.segment = key.segment();
            run.stage = key.stage();
            run.outcome = outcome;
            run.message = message;
            commit(run);
        }
    }

    /**
     * The request has ended and every thread of it with it: the dials and runs still open were cut short. A launch wait
     * cut short is not recorded (it ended in no dial), nor is the delivery that never came.
     */
    private void closeAll() {
        dials.keySet().forEach(key -> endDial(key, "cancelled", ""));
        runs.keySet().forEach(key -> endRun(key, "cancelled", ""));
        lastDelivery = null;
    }

    /**
     * The event open for {@code key}, taken out of {@code open}; null if none. An empty map is not asked: with its
     * event type disabled nothing is ever put, and the job-thread hot path then pays for no hashing and no removal.
     * Only the job's own thread puts and removes its key, so a put it made is seen here.
     */
    private static <E extends Event> E removed(Map<JobKey, E> open, JobKey key) {
        return open.isEmpty() ? null : open.remove(key);
    }

    private static void commit(Event event) {
        event.commit();
        COMMITTED.increment();
    }
}
