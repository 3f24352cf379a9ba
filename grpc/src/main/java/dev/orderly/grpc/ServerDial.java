package dev.orderly.grpc;

import dev.orderly.api.Job;
import dev.orderly.grpc.room.WaitingRoom.Seat;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code ProcessRange} call on a tier2, from its arrival until its job starts ({@link ServerJob}) or it is
 * refused. It may be told either at once, on the gRPC handler's thread, or later: a waiter is admitted on the thread
 * of the job that freed its slot, and refused on the timer's thread (its wait ended), an arriving dial's (it took
 * this one's seat) or the draining one's.
 *
 * <p>The call's cancel handler (the client cancelled, its deadline passed, or its connection went away) is set here,
 * while the gRPC handler runs, as gRPC requires: a waiter leaves the room at once, an admitted job is stopped.
 *
 * <h2>State (guarded by {@code lock})</h2>
 * {@code seat} is set once, when the arrival returns; {@code gone} turns true once, when the client goes away;
 * {@code job} is set once, when the dial is admitted and its client is still there. A client that goes away while
 * its dial is being admitted is seen by whichever of the two comes second: the cancel stops the job, or the admission
 * gives the slot straight back. This class is thread-safe.
 */
final class ServerDial implements AdmissionLimit.Waiter {

    private static final Logger LOG = LoggerFactory.getLogger(ServerDial.class);

    /**
     * What the job needs to run, once admitted.
     *
     * @param maxMessageSize the server's {@code maxMessageSize}: an update over it is not sent
     */
    record Runner(JobWorker worker, JobOutputs outputs, RunningJobs running, ScheduledExecutorService timer,
                  Duration executionTimeout, String instanceName, int maxMessageSize) {
    }

    private final Job job;
    private final byte[] work;
    private final ServerCallStreamObserver<ProcessRangeResponse> responses;
    private final AdmissionLimit slots;
    private final Runner runner;
    private final ReentrantLock lock = new ReentrantLock();

    // guarded by lock
    private Seat<AdmissionLimit.Waiter> seat;
    // guarded by lock
    private boolean gone;
    // guarded by lock
    private ServerJob started;

    ServerDial(Job job, byte[] work, ServerCallStreamObserver<ProcessRangeResponse> responses, AdmissionLimit slots,
               Runner runner) {
        this.job = job;
        this.work = work;
        this.responses = responses;
        this.slots = slots;
        this.runner = runner;
    }

    /**
     * Arrives at the instance: admitted, waiting or refused. Called on the gRPC handler's thread, before it returns.
     *
     * @param tenant the dial's tenant (the request id when the client named none)
     * @param rank how far ahead of its client the job is, {@code >= 0}
     * @param maxWaitMillis how long the client lets it wait; 0 refuses at once when full
     */
    void arrive(String tenant, long rank, long maxWaitMillis) {
        responses.setOnCancelHandler(this::clientGone);
        // A tenant that is the request is one client reading in order: its own dials go by segment, since their
        // ranks were taken as each was made, the client reading on in between. A tenant of several requests: by rank.
        long segment = tenant.equals(job.requestId()) ? job.key().segment() : rank;
        Seat<AdmissionLimit.Waiter> s = slots.arrive(this, tenant, segment, rank, job.key().stage(), maxWaitMillis);
        boolean leave;
        lock.lock();
        try {
            seat = s;
            leave = gone;
        } finally {
            lock.unlock();
        }
        if (leave && s != null) {
            slots.leave(s); // gRPC runs the cancel handler after this returns; this is only for safety
        }
    }

    /**
     * Where this job's output writes go: nowhere for a stage below the last, when the client said how many there are.
     * Every stage's output goes to its segment's one place, and a lower stage's, written beside the last stage's job of
     * the segment, replaced the output the client then read (the guide's worker writes at every stage).
     */
    private JobOutputs outputs() {
        JobOutputs outputs = runner.outputs();
        int stages = job.stages();
        if (outputs == null || stages == 0 || job.key().stage() == stages - 1) {
            return outputs;
        }
        return (requestId, segment, output) -> LOG.debug("job {} of request {}: the output of stage {} below the"
                + " last, {}, is not written", job.key(), requestId, job.key().stage(), stages - 1);
    }

    @Override
    public void admitted(Seat<AdmissionLimit.Waiter> slot) {
        ServerJob j = new ServerJob(job, work, runner.worker(), outputs(), runner.maxMessageSize(), responses,
                () -> slots.release(slot), slots::started, runner.running()::remove);
        boolean clientThere;
        lock.lock();
        try {
            clientThere = !gone;
            if (clientThere) {
                started = j;
            }
        } finally {
            lock.unlock();
        }
        if (!clientThere) {
            slots.release(slot); // nobody to run it for: the slot goes to the next waiter, and nothing counts
            return;
        }
        if (!runner.running().add(j)) {
            // admitted as the server began to stop, after it stopped the jobs it had: stopped now, it never runs
            // its worker (so it is no admission), its client hears UNAVAILABLE (nothing ran), and its thread gives
            // the slot back
            j.cancel(ServerJob.Why.SERVER_STOPPING);
        }
        // counted as Admitted is sent (ServerJob.start), not here: its client may go away from now until then
        j.start(runner.instanceName(), runner.timer(), runner.executionTimeout());
    }

    @Override
    public void refused(AdmissionLimit.Refusal why) {
        Status status = why == AdmissionLimit.Refusal.DRAINING
                ? Status.UNAVAILABLE.withDescription("tier2 draining")
                : Status.RESOURCE_EXHAUSTED.withDescription(Tier2Protocol.OVERLOADED);
        try {
            responses.onError(status.asRuntimeException());
        } catch (RuntimeException sendFailed) {
            // the client went away a moment ago: nobody to tell
            LOG.debug("dial of {}: could not send its refusal: {}", job.key(), sendFailed.toString());
        }
    }

    /** The client cancelled, its deadline passed or its connection broke: leave the room, or stop the job. */
    private void clientGone() {
        Seat<AdmissionLimit.Waiter> s;
        ServerJob j;
        lock.lock();
        try {
            gone = true;
            s = seat;
            j = started;
        } finally {
            lock.unlock();
        }
        if (j != null) {
            j.cancel(ServerJob.Why.CLIENT_CANCELLED);
        } else if (s != null) {
            slots.leave(s); // false when it is being admitted now: admitted() sees gone and gives the slot back
        }
    }
}
