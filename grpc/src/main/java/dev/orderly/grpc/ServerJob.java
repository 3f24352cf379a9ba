package dev.orderly.grpc;

import com.google.protobuf.ByteString;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.proto.Completed;
import dev.orderly.grpc.proto.Failed;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import dev.orderly.grpc.proto.Update;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.io.IOException;
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
 * <p>Three things may stop the job early, each by interrupting its thread: the client cancels or goes away
 * ({@link #cancel(Why)} from gRPC's cancel handler), the per-job execution limit expires, or the server stops. The
 * first reason recorded decides how the call ends: a cancelled call gets nothing more, an expired one
 * {@code DEADLINE_EXCEEDED}, a stopped server {@code UNAVAILABLE} (the client retries elsewhere).
 *
 * <h2>State (guarded by {@code lock})</h2>
 * {@code thread} is set once, before the job can be cancelled by anyone but gRPC; {@code stopped} is set once, by the
 * first stop. A stop that comes before the thread exists is seen by the thread when it starts, so none is lost.
 * {@code ended} turns true once, when the call's end is sent (or when the job ends on a cancelled call).
 *
 * <p>After {@code Admitted}, every message goes out under {@code lock}: gRPC's stream observer is not thread-safe, and
 * the worker may send updates from threads of its own ({@link JobContext#sendUpdate}) while the job's thread sends the
 * end. An update after the end is dropped. This class is thread-safe.
 */
final class ServerJob implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ServerJob.class);

    /** Why a job was stopped before it ended on its own. */
    enum Why { CLIENT_CANCELLED, EXECUTION_LIMIT, SERVER_STOPPING }

    private final Job job;
    private final byte[] work;
    private final JobWorker worker;
    private final JobOutputs outputs;
    private final ServerCallStreamObserver<ProcessRangeResponse> responses;
    private final AdmissionLimit slots;
    private final Consumer<ServerJob> onEnd;
    private final ReentrantLock lock = new ReentrantLock();

    // guarded by lock
    private Thread thread;
    // guarded by lock
    private Why stopped;
    // guarded by lock
    private boolean ended;

    /** @param outputs where {@link JobContext#writeOutput} writes; null when the server has none */
    ServerJob(Job job, byte[] work, JobWorker worker, JobOutputs outputs,
              ServerCallStreamObserver<ProcessRangeResponse> responses, AdmissionLimit slots,
              Consumer<ServerJob> onEnd) {
        this.job = job;
        this.work = work;
        this.worker = worker;
        this.outputs = outputs;
        this.responses = responses;
        this.slots = slots;
        this.onEnd = onEnd;
    }

    /**
     * Arms the execution limit (if any) and starts the job's thread. Called on the gRPC handler's thread, before the
     * handler returns, as the stream observer's handlers must be.
     */
    void start(ScheduledExecutorService timer, Duration executionLimit) {
        if (executionLimit != null) {
            ScheduledFuture<?> f = timer.schedule(() -> cancel(Why.EXECUTION_LIMIT), executionLimit.toNanos(),
                    TimeUnit.NANOSECONDS);
            responses.setOnCloseHandler(() -> f.cancel(false));
        }
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

    /** Stops the job: its thread is interrupted; the first reason wins. */
    void cancel(Why why) {
        lock.lock();
        try {
            if (stopped == null) {
                stopped = why;
            }
            if (thread != null) {
                thread.interrupt();
            }
        } finally {
            lock.unlock();
        }
    }

    JobKey key() {
        return job.key();
    }

    @Override
    public void run() {
        try {
            if (stoppedAs() == null) {
                worker.run(new Context(job, work, outputs, this));
            }
            end(null);
        } catch (Throwable e) {
            end(e);
        } finally {
            slots.release();
            onEnd.accept(this);
        }
    }

    private void end(Throwable e) {
        lock.lock();
        try {
            sendEnd(e, stopped);
            ended = true;
        } finally {
            lock.unlock();
        }
        if (e instanceof InterruptedException && stoppedAs() == null) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sends the call's end as the worker's ending and the first stop say. Called under {@code lock}. */
    private void sendEnd(Throwable e, Why why) {
        try {
            if (why == Why.CLIENT_CANCELLED) {
                return; // nobody is listening
            }
            if (why == Why.EXECUTION_LIMIT) {
                responses.onError(Status.DEADLINE_EXCEEDED.withDescription("job " + job.key()
                        + " ran past the tier2's execution limit").asRuntimeException());
            } else if (why == Why.SERVER_STOPPING) {
                responses.onError(Status.UNAVAILABLE.withDescription("tier2 stopped before job " + job.key()
                        + " ended").asRuntimeException());
            } else if (e == null) {
                responses.onNext(ProcessRangeResponse.newBuilder().setCompleted(Completed.getDefaultInstance())
                        .build());
                responses.onCompleted();
            } else if (e instanceof Tier2Exception t && t.kind() == Tier2Exception.Kind.EXECUTION_TIMEOUT) {
                responses.onError(Status.DEADLINE_EXCEEDED.withDescription(t.getMessage()).asRuntimeException());
            } else {
                boolean fatal = e instanceof Tier2Exception t && t.kind() == Tier2Exception.Kind.FATAL;
                LOG.warn("job {} failed{}: {}", job.key(), fatal ? " fatally" : "", e.toString());
                responses.onNext(ProcessRangeResponse.newBuilder().setFailed(Failed.newBuilder()
                        .setReason(String.valueOf(e.getMessage())).setFatal(fatal)).build());
                responses.onCompleted();
            }
        } catch (RuntimeException sendFailed) {
            // The call was closed under us (cancelled between our check and the send): nothing left to tell.
            LOG.debug("job {}: could not send its end: {}", job.key(), sendFailed.toString());
        }
    }

    /** Sends an {@code Update}, unless the call has ended or was cancelled. */
    private void sendUpdate(byte[] payload) {
        ProcessRangeResponse update = ProcessRangeResponse.newBuilder()
                .setUpdate(Update.newBuilder().setPayload(ByteString.copyFrom(payload))).build();
        lock.lock();
        try {
            if (ended || stopped != null || responses.isCancelled()) {
                return;
            }
            responses.onNext(update);
        } catch (RuntimeException sendFailed) {
            LOG.debug("job {}: could not send an update: {}", job.key(), sendFailed.toString());
        } finally {
            lock.unlock();
        }
    }

    /** A context for a worker run outside a server (its {@link JobWorker.WithContext#run(Job, byte[])}). */
    static JobContext detachedContext(Job job, byte[] work) {
        return new Context(job, work, null, null);
    }

    /** The {@link JobContext} of one job; {@code owner} is null outside a server. */
    private record Context(Job job, byte[] work, JobOutputs outputs, ServerJob owner) implements JobContext {

        @Override
        public void writeOutput(byte[] output) throws IOException, Tier2Exception {
            if (outputs == null) {
                throw new IllegalStateException("this tier2 has no outputs to write job " + job.key() + " to:"
                        + " build its Tier2Server with outputs(...), or start Tier2Main with --outputs");
            }
            outputs.write(job.requestId(), job.key().segment(), output);
        }

        @Override
        public void sendUpdate(byte[] payload) {
            if (owner != null) {
                owner.sendUpdate(payload.clone());
            }
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
