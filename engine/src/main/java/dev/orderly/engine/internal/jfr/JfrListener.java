package dev.orderly.engine.internal.jfr;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;

/**
 * Turns one request's listener events into JFR events ({@code dev.orderly.LaunchWait}, {@code dev.orderly.Dial},
 * {@code dev.orderly.JobRun}, {@code dev.orderly.SegmentDelivered}), then passes each event on to the next listener.
 *
 * <p>The JFR events are derived from the listener events rather than hooked into the launch queue, so the queue's
 * no-queue path carries no JFR code at all. An event is begun at the listener event that opens it (a join, a dial, an
 * admission) only when its type is enabled in a running recording, and kept per unit until the listener event that
 * closes it; with no recording running nothing is allocated, kept or committed, and until JFR is set up in the JVM the
 * event types are not even registered. An event still open when the request ends (its thread was interrupted in a
 * dial or a run) is committed with the outcome {@code cancelled}.
 *
 * <p>Thread-safe. The open events of a unit live in one {@link Open} holder in a concurrent map keyed by unit,
 * there from the first event that opens until the last one closes: one map entry per job, however many events it
 * goes through. Each unit has one live job, so a holder is read and written by one job thread at a time (the map
 * orders the holder of a re-run after its predecessor's removal), and by the thread that ends the request after
 * every job thread has ended. The map is made by the first event that opens, so with every event type disabled there
 * is none, and a map that was emptied is not touched beyond {@code isEmpty()}: a request with no recording running
 * makes no map and does no map work at all. {@code lastDelivery} is touched by the walker thread only, and by the
 * thread that ends the request after the walker has ended.
 *
 * <p>The event classes repeat their identity fields (request, segment, stage, attempt) instead of inheriting them from
 * a common superclass: {@code jfr print} lists a subclass's fields before its superclass's, which would put a job's
 * identity after its outcome.
 */
public final class JfrListener implements RequestListener {

    /** Committed events since the class was loaded: lets a test see that a disabled event is never committed. */
    private static final LongAdder COMMITTED = new LongAdder();
    private static final VarHandle OPEN;

    static {
        try {
            OPEN = MethodHandles.lookup().findVarHandle(JfrListener.class, "open", Map.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        // The event types are registered when JFR is set up (at once if it is), not when their classes are first
        // initialized: the first registration sets up JFR's metadata (about 150 ms on a 2-vCPU EPYC), which a JVM
        // that never records would pay at its first request for nothing. Until then an event is made and found
        // disabled, as with no recording running. A recording started later, from jcmd or in code, sets JFR up and
        // gets the events of the requests already running too.
        FlightRecorder.addListener(new FlightRecorderListener() {
            @Override
            public void recorderInitialized(FlightRecorder recorder) {
                for (Class<? extends Event> type : List.of(LaunchWaitEvent.class, DialEvent.class, JobRunEvent.class,
                        SegmentDeliveredEvent.class)) {
                    FlightRecorder.register(type);
                }
            }
        });
    }

    private final String requestId;
    private final RequestListener next;
    // Asked on the thread of a job that abandons its run: was the run cut short by the request's end (it failed, was
    // cancelled, or delivered its last segment), not by its own unit's cancellation? It is then cancelled.
    private final BooleanSupplier cutByTheRequestsEnd;
    // Made by the first event that opens (OPEN, compare-and-set): a request with no recording running makes none.
    private volatile Map<JobKey, Open> open;
    private volatile SegmentDeliveredEvent lastDelivery;

    /** The events open for one unit, at most one of each kind (its run begins as its dial ends, never both). */
    private static final class Open {
        LaunchWaitEvent wait;
        DialEvent dial;
        JobRunEvent run;

        boolean isEmpty() {
            return wait == null && dial == null && run == null;
        }
    }

    /** Records the events of request {@code requestId}, then passes each on to {@code next}. */
    public JfrListener(String requestId, RequestListener next) {
        this(requestId, next, () -> false);
    }

    /**
     * Records the events of request {@code requestId}, then passes each on to {@code next}.
     * {@code cutByTheRequestsEnd}, asked on the thread of a job that abandons its run, says whether the request's end
     * cut the run short (it is then committed as {@code cancelled}, as one still open at the end would be) rather than
     * its unit's own cancellation ({@code abandoned}).
     */
    public JfrListener(String requestId, RequestListener next, BooleanSupplier cutByTheRequestsEnd) {
        this.requestId = requestId;
        this.next = next;
        this.cutByTheRequestsEnd = cutByTheRequestsEnd;
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

    /**
     * The job's launch wait is opened with the cause {@code failed}, as the failed job's own would have been; the
     * queue's join that follows does not change it.
     */
    @Override
    public void onFailureDelayOwed(JobKey key) {
        startWait(key, "failed");
        next.onFailureDelayOwed(key);
    }

    /**
     * The job's launch wait is opened with the cause {@code refused}, as the refused job's own would have been; the
     * queue's join that follows does not change it.
     */
    @Override
    public void onRefusedDelayOwed(JobKey key) {
        startWait(key, "refused");
        next.onRefusedDelayOwed(key);
    }

    @Override
    public void onDial(Job job) {
        Open events = opened(job.key());
        LaunchWaitEvent wait = events == null ? null : events.wait;
        if (wait != null) {
            events.wait = null;
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
            events = events != null ? events : holder(job.key());
            events.dial = dial;
        }
        closeIfEmpty(job.key(), events);
        next.onDial(job);
    }

    @Override
    public void onAdmitted(Job job) {
        Open events = opened(job.key());
        endDial(job.key(), events, "admitted", "");
        JobRunEvent run = begun(new JobRunEvent());
        if (run != null) {
            run.attempt = job.attempt();
            events = events != null ? events : holder(job.key());
            events.run = run;
        }
        closeIfEmpty(job.key(), events);
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
        Open events = opened(job.key());
        endRun(job.key(), events, "done", "");
        closeIfEmpty(job.key(), events);
        next.onJobDone(job);
    }

    @Override
    public void onRerun(JobKey key) {
        next.onRerun(key);
    }

    @Override
    public void onAbandoned(JobKey key) {
        Open events = opened(key);
        if (events != null) {
            // A wait or a dial the job gave up is not recorded: it ended in no dial, no answer.
            events.wait = null;
            // A dial or a run cut short by the request's end was cancelled with it, as one still open at the end
            // would be (the request's stop cancels its jobs, which then end as abandoned).
            boolean cut = (events.run != null || events.dial != null) && cutByTheRequestsEnd.getAsBoolean();
            if (cut) {
                endDial(key, events, "cancelled", "");
            } else {
                events.dial = null;
            }
            endRun(key, events, cut ? "cancelled" : "abandoned", "");
            closeIfEmpty(key, events);
        }
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

    /** The unit's holder, or null; an empty map is not asked (no hashing when nothing was ever opened). */
    private Open opened(JobKey key) {
        Map<JobKey, Open> map = open;
        return map == null || map.isEmpty() ? null : map.get(key);
    }

    /** The unit's holder, made and put if it has none: called only when an event is about to open. */
    private Open holder(JobKey key) {
        Map<JobKey, Open> map = open;
        if (map == null) {
            OPEN.compareAndSet(this, null, new ConcurrentHashMap<JobKey, Open>());
            map = open;
        }
        return map.computeIfAbsent(key, k -> new Open());
    }

    /** Takes the unit's holder out of the map once nothing of it is open any more. */
    private void closeIfEmpty(JobKey key, Open events) {
        if (events != null && events.isEmpty()) {
            // A holder is only ever got from the map, so the map is there.
            open.remove(key, events);
        }
    }

    private void startWait(JobKey key, String cause) {
        LaunchWaitEvent wait = begun(new LaunchWaitEvent());
        if (wait != null) {
            wait.cause = cause;
            Open events = holder(key);
            // A refusal of a job that was not queued also reports the join: the refusal opened the wait already.
            if (events.wait == null) {
                events.wait = wait;
            }
        }
    }

    /**
     * An error ends the dial in flight, or else the run it interrupted: a job has one or the other open, never both (its
     * run begins as its dial ends).
     */
    private void endAttempt(Job job, Tier2Exception cause) {
        Open events = opened(job.key());
        if (events == null) {
            return;
        }
        String outcome = cause.kind().name().toLowerCase(Locale.ROOT);
        String message = String.valueOf(cause.getMessage());
        endDial(job.key(), events, outcome, message);
        endRun(job.key(), events, outcome, message);
        closeIfEmpty(job.key(), events);
    }

    private void endDial(JobKey key, Open events, String outcome, String message) {
        DialEvent dial = events == null ? null : events.dial;
        if (dial == null) {
            return;
        }
        events.dial = null;
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

    private void endRun(JobKey key, Open events, String outcome, String message) {
        JobRunEvent run = events == null ? null : events.run;
        if (run == null) {
            return;
        }
        events.run = null;
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
     * The request has ended and every thread of it with it: the dials and runs still open were cut short (all the
     * dials first, then all the runs). A launch wait cut short is not recorded (it ended in no dial), nor is the
     * delivery that never came.
     */
    private void closeAll() {
        Map<JobKey, Open> map = open;
        if (map != null) {
            map.forEach((key, events) -> endDial(key, events, "cancelled", ""));
            map.forEach((key, events) -> endRun(key, events, "cancelled", ""));
            map.clear();
        }
        lastDelivery = null;
    }

    private static void commit(Event event) {
        event.commit();
        COMMITTED.increment();
    }
}
