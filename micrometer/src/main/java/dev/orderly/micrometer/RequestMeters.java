package dev.orderly.micrometer;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One request's listener: records its events on the {@link OrderlyMetrics} meters, then passes each on to the next
 * listener.
 *
 * <p>State, per unit: whether its job is in the launch queue ({@code queued}), whether a dial of it is in flight
 * ({@code dialing}), when its current wait for a turn began ({@code waitingSince}), and when its admitted run began
 * ({@code runningSince}). The sets are mirrored in the gauges' totals: a key is added to the total exactly when it
 * is added to the set, and taken away exactly when it is removed, so the totals never drift. When the request ends
 * every key still held (a job that left the queue without an event, e.g. on a request-failing error, or a thread cut
 * short by cancellation) is taken away, and nothing is kept.
 *
 * <p>Thread-safe. The engine calls a unit's events from one job thread at a time, and the request's end after all of
 * them; the concurrent collections make each step atomic regardless.
 */
final class RequestMeters implements RequestListener {

    private final OrderlyMetrics metrics;
    private final RequestListener next;
    private final Set<JobKey> queued = ConcurrentHashMap.newKeySet();
    private final Set<JobKey> dialing = ConcurrentHashMap.newKeySet();
    private final Map<JobKey, Long> waitingSince = new ConcurrentHashMap<>();
    private final Map<JobKey, Long> runningSince = new ConcurrentHashMap<>();

    RequestMeters(OrderlyMetrics metrics, RequestListener next) {
        this.metrics = metrics;
        this.next = next;
    }

    @Override
    public void onQueued(JobKey key) {
        if (queued.add(key)) {
            metrics.queued(1);
        }
        waitingSince.putIfAbsent(key, metrics.now());
        next.onQueued(key);
    }

    @Override
    public void onFailureDelayOwed(JobKey key) {
        // the withdrawal that left the delay owed ended the failed job's wait (onAbandoned): this one starts now
        waitingSince.putIfAbsent(key, metrics.now());
        next.onFailureDelayOwed(key);
    }

    @Override
    public void onRefusedDelayOwed(JobKey key) {
        // the withdrawal that left the delay owed ended the refused job's wait (onAbandoned): this one starts now
        waitingSince.putIfAbsent(key, metrics.now());
        next.onRefusedDelayOwed(key);
    }

    @Override
    public void onDial(Job job) {
        Long since = waitingSince.remove(job.key());
        if (since != null) {
            metrics.launchWait().record(metrics.now() - since, TimeUnit.NANOSECONDS);
        }
        if (dialing.add(job.key())) {
            metrics.dialing(1);
        }
        next.onDial(job);
    }

    @Override
    public void onRefused(Job job, Tier2Exception cause) {
        endDial(job.key());
        runningSince.remove(job.key());
        metrics.dialed(cause.kind());
        waitingSince.putIfAbsent(job.key(), metrics.now());
        next.onRefused(job, cause);
    }

    @Override
    public void onAdmitted(Job job) {
        endDial(job.key());
        leaveQueue(job.key());
        metrics.admitted();
        runningSince.put(job.key(), metrics.now());
        next.onAdmitted(job);
    }

    @Override
    public void onFailed(Job job, Tier2Exception cause) {
        endDial(job.key());
        runningSince.remove(job.key());
        metrics.dialed(cause.kind());
        if (cause.kind() != Tier2Exception.Kind.FATAL) {
            waitingSince.putIfAbsent(job.key(), metrics.now());
        }
        next.onFailed(job, cause);
    }

    @Override
    public void onJobDone(Job job) {
        Long since = runningSince.remove(job.key());
        if (since != null) {
            metrics.jobDuration().record(metrics.now() - since, TimeUnit.NANOSECONDS);
        }
        next.onJobDone(job);
    }

    @Override
    public void onRerun(JobKey key) {
        next.onRerun(key);
    }

    @Override
    public void onAbandoned(JobKey key) {
        endDial(key);
        leaveQueue(key);
        waitingSince.remove(key);
        runningSince.remove(key);
        next.onAbandoned(key);
    }

    @Override
    public void onSegmentDelivered(long segment) {
        metrics.delivered();
        next.onSegmentDelivered(segment);
    }

    @Override
    public void onRequestDone(RequestResult result) {
        end(result);
        metrics.requestDone();
        next.onRequestDone(result);
    }

    @Override
    public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
        end(soFar);
        metrics.requestFailed();
        next.onRequestFailed(soFar, failure);
    }

    @Override
    public void onRequestCancelled(RequestResult soFar) {
        end(soFar);
        metrics.requestCancelled();
        next.onRequestCancelled(soFar);
    }

    private void endDial(JobKey key) {
        if (dialing.remove(key)) {
            metrics.dialing(-1);
        }
    }

    private void leaveQueue(JobKey key) {
        if (queued.remove(key)) {
            metrics.queued(-1);
        }
    }

    /** The request is over: record its time to first segment and give back whatever it still holds. */
    private void end(RequestResult result) {
        if (result.segmentsDelivered() > 0) {
            metrics.firstSegment().record(result.timeToFirstSegment());
        }
        queued.forEach(this::leaveQueue);
        dialing.forEach(this::endDial);
        waitingSince.clear();
        runningSince.clear();
    }
}
