package dev.orderly.sim.run;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Exception;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The metrics collector of one tenant's request: a {@link RequestListener} that keeps every job's trace and counts,
 * plus the client's deliveries and idle time reported by {@link SimulatedClient}. Times are wall-clock nanoseconds
 * from the start of the run (the {@code origin}).
 *
 * <h2>Invariants (all guarded by {@code lock})</h2>
 * <ul>
 *   <li>{@code open} holds the trace being built for each unit whose job is alive; it moves to {@code finished} when
 *       the job is done or fails, so a retry after a failure starts a new trace, or when its unit stops being needed:
 *       at once if the job still waits to get in, else when the engine reports it abandoned (see
 *       {@link JobTrace.Ending#ABANDONED}).
 *   <li>{@code queued + dialing + running == open.size()}; each open job is in exactly one of those states.
 *   <li>{@code readyAt[s]} is the last time segment {@code s}'s last-stage job succeeded; {@code deliveredAt[s]} the
 *       time the client received it; both {@code -1} until then.
 * </ul>
 *
 * <p>This class is thread-safe: the engine calls it from every job thread at once. Each method holds the lock for a
 * few field updates only.
 */
public final class TenantRecorder implements RequestListener {

    private enum State { QUEUED, DIALING, RUNNING }

    /** A trace under construction. Guarded by the recorder's lock. */
    private static final class Open {
        final JobKey key;
        final long queuedAt;
        long firstDialAt = -1;
        long admittedAt = -1;
        int dials;
        State state;

        Open(JobKey key, long queuedAt, State state) {
            this.key = key;
            this.queuedAt = queuedAt;
            this.state = state;
        }

        JobTrace end(long at, JobTrace.Ending ending) {
            return new JobTrace(key, queuedAt, firstDialAt, admittedAt, at, ending, dials);
        }
    }

    private final String tenant;
    private final Strategy strategy;
    private final int lastStage;
    private final long origin;
    private final ReentrantLock lock = new ReentrantLock();

    // guarded by lock
    private final Map<JobKey, Open> open = new HashMap<>();
    // guarded by lock
    private final List<JobTrace> finished = new ArrayList<>();
    // guarded by lock
    private final long[] readyAt;
    // guarded by lock
    private final long[] deliveredAt;
    // guarded by lock
    private int queued;
    // guarded by lock
    private int dialing;
    // guarded by lock
    private int running;
    // guarded by lock
    private long delivered;
    // guarded by lock
    private long clientIdleNanos;
    // guarded by lock; since when the client has been waiting for a segment, -1 while it reads or once the request
    // ended. It waits from the run's start.
    private long clientIdleSince;
    // guarded by lock
    private boolean ended;
    // guarded by lock
    private long dials;
    // guarded by lock
    private long refusals;
    // guarded by lock
    private long admissions;
    // guarded by lock
    private long failures;
    // guarded by lock
    private long executionTimeouts;
    // guarded by lock
    private long fatal;
    // guarded by lock
    private long reruns;

    /**
     * @param tenant the tenant's name
     * @param strategy the tenant's strategy
     * @param segments the request's segments {@code [0, segments)}
     * @param stages the request's stages
     * @param origin the {@link System#nanoTime()} at which the run started
     */
    public TenantRecorder(String tenant, Strategy strategy, int segments, int stages, long origin) {
        this.tenant = tenant;
        this.strategy = strategy;
        this.lastStage = stages - 1;
        this.origin = origin;
        this.readyAt = new long[segments];
        this.deliveredAt = new long[segments];
        Arrays.fill(readyAt, -1);
        Arrays.fill(deliveredAt, -1);
    }

    private long now() {
        return System.nanoTime() - origin;
    }

    @Override
    public void onQueued(JobKey key) {
        long at = now();
        lock.lock();
        try {
            if (!open.containsKey(key)) {
                open.put(key, new Open(key, at, State.QUEUED));
                queued++;
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onDial(Job job) {
        long at = now();
        lock.lock();
        try {
            Open o = open.get(job.key());
            if (o == null) {
                o = new Open(job.key(), -1, State.DIALING);
                open.put(job.key(), o);
                dialing++;
            } else if (o.state == State.QUEUED) {
                queued--;
                dialing++;
                o.state = State.DIALING;
            }
            if (o.firstDialAt < 0) {
                o.firstDialAt = at;
            }
            o.dials++;
            dials++;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onRefused(Job job, Tier2Exception cause) {
        long at = now();
        lock.lock();
        try {
            refusals++;
            Open o = open.get(job.key());
            if (o != null && o.state == State.RUNNING) {
                // Heard from await: the tier2 took the job and says nothing ran; the engine dials again, as after a
                // refusal. The run ends here, failed; the job dials on in a trace of its own.
                close(job.key(), at, JobTrace.Ending.FAILED);
                open.put(job.key(), new Open(job.key(), -1, State.DIALING));
                dialing++;
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onAdmitted(Job job) {
        long at = now();
        lock.lock();
        try {
            admissions++;
            Open o = open.get(job.key());
            if (o == null) {
                o = new Open(job.key(), -1, State.RUNNING);
                o.firstDialAt = at;
                o.admittedAt = at;
                open.put(job.key(), o);
                running++;
            } else if (o.state != State.RUNNING) {
                leaveState(o.state);
                running++;
                o.state = State.RUNNING;
                o.admittedAt = at;
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onFailed(Job job, Tier2Exception cause) {
        long at = now();
        lock.lock();
        try {
            switch (cause.kind()) {
                case EXECUTION_TIMEOUT -> executionTimeouts++;
                case FATAL -> fatal++;
                default -> failures++;
            }
            close(job.key(), at, JobTrace.Ending.FAILED);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onJobDone(Job job) {
        long at = now();
        lock.lock();
        try {
            JobKey key = job.key();
            close(key, at, JobTrace.Ending.DONE);
            if (key.stage() == lastStage && key.segment() < readyAt.length) {
                readyAt[(int) key.segment()] = at;
            }
            // The job of a higher stage also produced the partials of the stages under it.
            for (int stage = 0; stage < key.stage(); stage++) {
                abandonIfWaiting(new JobKey(key.segment(), stage), at);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onSegmentDelivered(long segment) {
        long at = now();
        lock.lock();
        try {
            for (int stage = 0; stage <= lastStage; stage++) {
                abandonIfWaiting(new JobKey(segment, stage), at);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The request has ended: every trace still open ends now, as {@link JobTrace.Ending#ABANDONED} if the request
     * completed (nothing needed those jobs any more) or {@link JobTrace.Ending#CANCELLED} if it failed.
     */
    void requestEnded(boolean completed) {
        long at = now();
        lock.lock();
        try {
            // Where the table ends a failed request (StrategyMetrics' total): at the last job's end or delivery, or
            // now if a job was still open (it ends now); not at the engine's teardown after the job that failed it.
            long last = TenantRecord.lastEventAt(finished, deliveredAt);
            long failedAt = open.isEmpty() && last >= 0 ? last : at;
            for (JobKey key : List.copyOf(open.keySet())) {
                close(key, at, completed ? JobTrace.Ending.ABANDONED : JobTrace.Ending.CANCELLED);
            }
            // A failure ends the client's wait for a segment that will never come: that wait was a stall too (it was
            // counted only when a segment arrived, so a request that failed before any reported none). After the
            // last segment of a completed request the client waits for nothing.
            if (!completed && clientIdleSince >= 0) {
                clientIdleNanos += Math.max(0, failedAt - clientIdleSince);
            }
            clientIdleSince = -1;
            ended = true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The engine stopped the job of {@code key} because its unit is no longer needed (a higher stage of its segment is
     * done, or the segment was delivered), wherever the job was, running included: its trace ends now. Without this a
     * covered running job stayed open, and was drawn running, until the request ended.
     */
    @Override
    public void onAbandoned(JobKey key) {
        long at = now();
        lock.lock();
        try {
            close(key, at, JobTrace.Ending.ABANDONED);
        } finally {
            lock.unlock();
        }
    }

    /** Ends the trace of {@code key} if its job is still waiting to get in: the engine will stop it unheard. */
    private void abandonIfWaiting(JobKey key, long at) {
        Open o = open.get(key);
        if (o != null && o.state != State.RUNNING) {
            close(key, at, JobTrace.Ending.ABANDONED);
        }
    }

    @Override
    public void onRerun(JobKey key) {
        lock.lock();
        try {
            reruns++;
        } finally {
            lock.unlock();
        }
    }

    /** The client received {@code segment} at {@code at}; it reads it until it calls {@link #clientWaiting}. */
    void delivered(long segment, long at) {
        lock.lock();
        try {
            deliveredAt[(int) segment] = at;
            delivered++;
            if (clientIdleSince >= 0) {
                clientIdleNanos += Math.max(0, at - clientIdleSince);
            }
            clientIdleSince = -1;
        } finally {
            lock.unlock();
        }
    }

    /** The client has read its last segment at {@code at} and waits for the next one. */
    void clientWaiting(long at) {
        lock.lock();
        try {
            if (!ended) {
                clientIdleSince = at;
            }
        } finally {
            lock.unlock();
        }
    }

    /** The {@link System#nanoTime()} at which the run started. */
    long origin() {
        return origin;
    }

    private void close(JobKey key, long at, JobTrace.Ending ending) {
        Open o = open.remove(key);
        if (o != null) {
            leaveState(o.state);
            finished.add(o.end(at, ending));
        }
    }

    private void leaveState(State state) {
        switch (state) {
            case QUEUED -> queued--;
            case DIALING -> dialing--;
            case RUNNING -> running--;
        }
    }

    /** The live counts, for a progress line. */
    public Live live() {
        lock.lock();
        try {
            return new Live(delivered, queued, dialing, running, refusals);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Everything recorded so far, as an immutable record; jobs still alive are ended as
     * {@link JobTrace.Ending#CANCELLED} at {@code endedAt}.
     */
    public TenantRecord snapshot(long endedAt) {
        lock.lock();
        try {
            List<JobTrace> traces = new ArrayList<>(finished);
            for (Open o : open.values()) {
                traces.add(o.end(endedAt, JobTrace.Ending.CANCELLED));
            }
            return new TenantRecord(tenant, strategy, traces, readyAt.clone(), deliveredAt.clone(), delivered,
                    clientIdleNanos, dials, refusals, admissions, failures, executionTimeouts, fatal, reruns);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Live counts of one tenant.
     *
     * @param delivered segments the client has received
     * @param queued jobs waiting in the launch queue before their first dial
     * @param dialing jobs that have dialed and not got in yet
     * @param running jobs a tier2 is running
     * @param refusals dials refused or unreachable so far
     */
    public record Live(long delivered, int queued, int dialing, int running, long refusals) {
    }
}
