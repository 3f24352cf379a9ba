package dev.orderly.grpc;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.proto.Admitted;
import dev.orderly.grpc.proto.Completed;
import dev.orderly.grpc.proto.Failed;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One admitted job on a tier2: runs the {@link JobWorker} on its own virtual thread, ends the call as the worker's
 * ending says, and gives the slot back exactly once, when the job's thread is done with it.
 *
 * <p>Three things may stop the job early: the client cancels or goes away ({@link #cancel(Why)} from gRPC's cancel
 * handler), the per-job execution limit expires, or the server stops. Each interrupts the job's thread, and the
 * first reason recorded decides how the call ends: a cancelled call gets nothing more; an expired one
 * {@code DEADLINE_EXCEEDED} and a stopped server {@code UNAVAILABLE}, both sent <em>at once</em> by the stopper, not
 * when the worker gets round to returning. A worker that ignores the interrupt keeps its slot until it returns
 * ({@link Tier2Server#jobsHeld()} shows it), but its client is told at the limit.
 *
 * <h2>State</h2>
 * Guarded by {@code lock}: {@code thread} is set once, before the job can be cancelled by anyone but gRPC;
 * {@code stopped} is set once, by the first stop. A stop that comes before the thread exists is seen by the thread
 * when it starts, so none is lost. Guarded by {@code sendLock}: {@code callEnded}, and every write to
 * {@code responses} (gRPC's stream observer is not thread-safe, and both the job's thread and a stopper write to it);
 * once {@code callEnded} is true nothing more is written. {@code lock} is never held while writing, so a gRPC
 * callback that runs {@link #cancel} on the writing thread finds it free. This class is thread-safe.
 */
final class ServerJob implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ServerJob.class);

    /** Why a job was stopped before it ended on its own. */
    enum Why { CLIENT_CANCELLED, EXECUTION_LIMIT, SERVER_STOPPING }

    private final Job job;
    private final byte[] work;
    private final JobWorker worker;
    private final ServerCallStreamObserver<ProcessRangeResponse> responses;
    private final AdmissionLimit slots;
    private final Consumer<ServerJob> onEnd;
    private final ReentrantLock lock = new ReentrantLock();
    private final ReentrantLock sendLock = new ReentrantLock();

    // guarded by lock
    private Thread thread;
    // guarded by lock
    private Why stopped;
    // guarded by sendLock
    private boolean callEnded;

    ServerJob(Job job, byte[] work, JobWorker worker, ServerCallStreamObserver<ProcessRangeResponse> responses,
              AdmissionLimit slots, Consumer<ServerJob> onEnd) {
        this.job = job;
        this.work = work;
        this.worker = worker;
        this.responses = responses;
        this.slots = slots;
        this.onEnd = onEnd;
    }

    /**
     * Sends {@code Admitted}, arms the execution limit (if any) and starts the job's thread. Called on the gRPC
     * handler's thread, before the handler returns, as the stream observer's handlers must be set.
     */
    void start(String instanceName, ScheduledExecutorService timer, Duration executionLimit) {
        responses.setOnCancelHandler(() -> cancel(Why.CLIENT_CANCELLED));
        if (executionLimit != null) {
            ScheduledFuture<?> f = timer.schedule(() -> cancel(Why.EXECUTION_LIMIT), executionLimit.toNanos(),
                    TimeUnit.NANOSECONDS);
            responses.setOnCloseHandler(() -> f.cancel(false));
        }
        send(ProcessRangeResponse.newBuilder().setAdmitted(Admitted.newBuilder().setInstance(instanceName)).build(),
                false);
        Thread t = Thread.ofVirtual().name("tier2-" + job.requestId() + "-" + job.key().segment() + "-"
                + job.key().stage()).unstarted(this);
        lock.lock();
        try {
            thread = t;
        } finally {
            lock.unlock();
        }
        t.start();
    }

    /** Stops the job: its thread is interrupted, and its call ended now as the reason says; the first reason wins. */
    void cancel(Why why) {
        boolean first;
        lock.lock();
        try {
            first = stopped == null;
            if (first) {
                stopped = why;
            }
            if (thread != null) {
                thread.interrupt();
            }
        } finally {
            lock.unlock();
        }
        if (!first) {
            return;
        }
        switch (why) {
            case CLIENT_CANCELLED -> endCall(null); // nobody is listening
            case EXECUTION_LIMIT -> endCall(Status.DEADLINE_EXCEEDED.withDescription("job " + job.key()
                    + " ran past the tier2's execution limit"));
            case SERVER_STOPPING -> endCall(Status.UNAVAILABLE.withDescription("tier2 stopped before job "
                    + job.key() + " ended"));
        }
    }

    JobKey key() {
        return job.key();
    }

    @Override
    public void run() {
        try {
            if (stoppedAs() == null) {
                worker.run(job, work);
            }
            end(null);
        } catch (Throwable e) {
            end(e);
        } finally {
            slots.release();
            onEnd.accept(this);
        }
    }

    /** The worker is done: tell the client how, unless a stop already ended the call. */
    private void end(Throwable e) {
        Why why = stoppedAs();
        if (why == null) {
            if (e == null) {
                send(ProcessRangeResponse.newBuilder().setCompleted(Completed.getDefaultInstance()).build(), true);
            } else if (e instanceof Tier2Exception t && t.kind() == Tier2Exception.Kind.EXECUTION_TIMEOUT) {
                endCall(Status.DEADLINE_EXCEEDED.withDescription(t.getMessage()));
            } else {
                boolean fatal = e instanceof Tier2Exception t && t.kind() == Tier2Exception.Kind.FATAL;
                LOG.warn("job {} failed{}: {}", job.key(), fatal ? " fatally" : "", e.toString());
                send(ProcessRangeResponse.newBuilder().setFailed(Failed.newBuilder()
                        .setReason(String.valueOf(e.getMessage())).setFatal(fatal)).build(), true);
            }
        }
        if (e instanceof InterruptedException && why == null) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sends one message, and completes the call after it if {@code last}; nothing once the call has ended. */
    private void send(ProcessRangeResponse message, boolean last) {
        sendLock.lock();
        try {
            if (callEnded) {
                return;
            }
            responses.onNext(message);
            if (last) {
                callEnded = true;
                responses.onCompleted();
            }
        } catch (RuntimeException sendFailed) {
            callEnded = true; // the call was closed under us (cancelled between our check and the send)
            LOG.debug("job {}: could not send: {}", job.key(), sendFailed.toString());
        } finally {
            sendLock.unlock();
        }
    }

    /** Ends the call with {@code status}, or marks it ended with nothing sent when null; once. */
    private void endCall(Status status) {
        sendLock.lock();
        try {
            if (callEnded) {
                return;
            }
            callEnded = true;
            if (status != null) {
                responses.onError(status.asRuntimeException());
            }
        } catch (RuntimeException sendFailed) {
            LOG.debug("job {}: could not end the call: {}", job.key(), sendFailed.toString());
        } finally {
            sendLock.unlock();
        }
    }

    private Why stoppedAs() {
        lock.lock();
        try {
            return stopped;
        } finally {
            lock.unlock();
        }
    }
}
