package dev.orderly.grpc;

import com.google.protobuf.ByteString;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.proto.Admitted;
import dev.orderly.grpc.proto.Completed;
import dev.orderly.grpc.proto.Failed;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import dev.orderly.grpc.proto.Update;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
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
 * {@code DEADLINE_EXCEEDED} and a stopped server {@code UNAVAILABLE} (the client retries elsewhere), both sent
 * <em>at once</em> by the stopper, not when the worker gets round to returning. A worker that ignores the interrupt
 * keeps its slot until it returns ({@link Tier2Server#jobsHeld()} shows it), but its client is told at the limit.
 *
 * <h2>State (guarded by {@code lock})</h2>
 * {@code thread} is set once, before the job can be cancelled by anyone but gRPC; {@code stopped} is set once, by the
 * first stop. A stop that comes before the thread exists is seen by the thread when it starts, so none is lost.
 * {@code ended} turns true once, when the call's end is sent, by the stopper or by the job's thread, whichever comes
 * first (or when the call was cancelled); nothing is sent after it. {@code executionLimit} is set once, at the start,
 * and cancelled when the job's thread is done.
 *
 * <p>After {@code Admitted}, every message goes out under {@code lock}: gRPC's stream observer is not thread-safe, and
 * the worker may send updates from threads of its own ({@link JobContext#sendUpdate}) while the job's thread sends the
 * end. An update after the end is dropped. This class is thread-safe.
 */
final class ServerJob implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ServerJob.class);

    /** Why a job was stopped before it ended on its own. */
    enum Why {
        CLIENT_CANCELLED("its client cancelled it"),
        EXECUTION_LIMIT("it ran past its execution limit"),
        SERVER_STOPPING("the tier2 is stopping");

        private final String words;

        Why(String words) {
            this.words = words;
        }

        @Override
        public String toString() {
            return words;
        }
    }

    private final Job job;
    private final byte[] work;
    private final JobWorker worker;
    private final JobOutputs outputs;
    private final int maxMessageSize;
    private final ServerCallStreamObserver<ProcessRangeResponse> responses;
    private final Runnable releaseSlot;
    private final Runnable onAdmitted;
    private final Consumer<ServerJob> onEnd;
    private final ReentrantLock lock = new ReentrantLock();

    // guarded by lock
    private Thread thread;
    // guarded by lock
    private Why stopped;
    // guarded by lock
    private boolean ended;
    // guarded by lock
    private ScheduledFuture<?> executionLimit;
    /**
     * Held shared by each output write, check and write alike, and exclusively as the worker's return is recorded: a
     * write in flight then ends before the client is told, and none begins after.
     */
    private final ReentrantReadWriteLock writes = new ReentrantReadWriteLock();
    /** Set once, when the worker has returned (or thrown): its context may not write after it. Guarded by writes. */
    private boolean returned;

    /**
     * @param outputs where {@link JobContext#writeOutput} writes; null when the server has none
     * @param maxMessageSize the server's {@code maxMessageSize}: an update over it is not sent
     * @param releaseSlot gives the job's slot back; run exactly once, when the job's thread is done
     * @param onAdmitted counts the admission; run at most once, as {@code Admitted} is sent, and not at all for a job
     *     stopped before it started (its client went away as it was handed the slot, or the server stops)
     */
    ServerJob(Job job, byte[] work, JobWorker worker, JobOutputs outputs, int maxMessageSize,
              ServerCallStreamObserver<ProcessRangeResponse> responses, Runnable releaseSlot, Runnable onAdmitted,
              Consumer<ServerJob> onEnd) {
        this.job = job;
        this.work = work;
        this.worker = worker;
        this.outputs = outputs;
        this.maxMessageSize = maxMessageSize;
        this.responses = responses;
        this.releaseSlot = releaseSlot;
        this.onAdmitted = onAdmitted;
        this.onEnd = onEnd;
    }

    /**
     * Sends {@code Admitted}, arms the execution limit (if any) and starts the job's thread. Called on the gRPC
     * handler's thread, or on the thread that handed this job a freed slot; the call's cancel handler (set by its
     * {@link ServerDial}) calls {@link #cancel} with {@link Why#CLIENT_CANCELLED}.
     */
    void start(String instanceName, ScheduledExecutorService timer, Duration limit) {
        Thread t = Thread.ofVirtual().name("tier2-" + job.requestId() + "-" + job.key().segment() + "-"
                + job.key().stage()).unstarted(this);
        lock.lock();
        try {
            try {
                // a job stopped before it started (its client gone, the server stopping) never runs its worker:
                // no Admitted, and no admission
                if (stopped == null) {
                    onAdmitted.run();
                    responses.onNext(ProcessRangeResponse.newBuilder()
                            .setAdmitted(Admitted.newBuilder().setInstance(instanceName)).build());
                }
            } catch (RuntimeException sendFailed) {
                // cancelled under us: the cancel handler stops the job, whose thread gives the slot back
                LOG.debug("job {}: could not send Admitted: {}", job.key(), sendFailed.toString());
            }
            if (limit != null) {
                executionLimit = timer.schedule(() -> cancel(Why.EXECUTION_LIMIT), limit.toNanos(),
                        TimeUnit.NANOSECONDS);
            }
            thread = t;
        } finally {
            lock.unlock();
        }
        t.start();
    }

    /**
     * Stops the job: its thread is interrupted and, the first time, its call ended now as {@code why} says (nothing
     * is sent to a client that cancelled). The slot is given back only when the worker returns.
     */
    void cancel(Why why) {
        lock.lock();
        try {
            if (stopped == null) {
                stopped = why;
                if (!ended) {
                    sendEnd(null, why);
                    ended = true;
                }
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
            Throwable failure = null;
            try {
                if (stoppedAs() == null) {
                    worker.run(new Context(job, work, outputs, this));
                }
            } catch (Throwable e) {
                failure = e;
            }
            // Before the client is told: a write from now on could land after it read the store, or re-ran the job. A
            // write still going on (from a thread the worker left behind) ends first.
            writes.writeLock().lock();
            try {
                returned = true;
            } finally {
                writes.writeLock().unlock();
            }
            end(failure);
        } finally {
            lock.lock();
            try {
                if (executionLimit != null) {
                    executionLimit.cancel(false); // the call has ended
                }
            } finally {
                lock.unlock();
            }
            releaseSlot.run();
            onEnd.accept(this);
        }
    }

    /** The worker is done: tell the client how, unless a stop already ended the call. */
    private void end(Throwable e) {
        lock.lock();
        try {
            if (!ended) {
                sendEnd(e, stopped);
                ended = true;
            }
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
                responses.onError(Status.DEADLINE_EXCEEDED.withDescription(forTrailers(t.getMessage()))
                        .asRuntimeException());
            } else {
                boolean fatal = e instanceof Tier2Exception t && t.kind() == Tier2Exception.Kind.FATAL;
                // Thrown, not reported (a bug in the worker), or with no message: the reason the client gets says
                // "the tier2's log has the rest", so the log says where it came from, with the stack trace.
                boolean reportedWithMessage = e instanceof Tier2Exception && hasMessage(e);
                LOG.warn("job {} failed{}: {}", job.key(), fatal ? " fatally" : "", e.toString(),
                        reportedWithMessage ? null : e);
                // cut as a description is: a reason longer than the client's largest message made the Failed
                // message too large, which the client reads as work over maxMessageSize (FATAL)
                responses.onNext(ProcessRangeResponse.newBuilder().setFailed(Failed.newBuilder()
                        .setReason(forTrailers(reason(e))).setFatal(fatal)).build());
                responses.onCompleted();
            }
        } catch (RuntimeException sendFailed) {
            // The call was closed under us (cancelled between our check and the send): nothing left to tell.
            LOG.debug("job {}: could not send its end: {}", job.key(), sendFailed.toString());
        }
    }

    /**
     * The most UTF-8 bytes of a status description: it travels percent-encoded (up to three bytes for one) in the
     * trailers, and a client fails a stream whose metadata pass 8 KiB, which would turn the status into another.
     */
    static final int MAX_DESCRIPTION_BYTES = 1024;

    /** {@code text} as a status description: cut, on a character's boundary, to what trailers carry. */
    static String forTrailers(String text) {
        byte[] utf8 = String.valueOf(text).getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= MAX_DESCRIPTION_BYTES) {
            return String.valueOf(text);
        }
        int end = MAX_DESCRIPTION_BYTES;
        while ((utf8[end] & 0xC0) == 0x80) {
            end--; // back to the first byte of the character the cut falls in
        }
        return new String(utf8, 0, end, StandardCharsets.UTF_8) + "... (cut: " + utf8.length + " bytes in all)";
    }

    /** What a failure says: its message, or what it is when it has none (never "null"). */
    private static String reason(Throwable e) {
        return hasMessage(e) ? e.getMessage()
                : e.getClass().getSimpleName() + " (no message; the tier2's log has the rest)";
    }

    private static boolean hasMessage(Throwable e) {
        return e.getMessage() != null && !e.getMessage().isBlank();
    }

    /**
     * Sends an {@code Update}, unless the call has ended or was cancelled, or the update is over the server's
     * {@code maxMessageSize}: the client, whose limit is the same, would fail the call over it with
     * {@code RESOURCE_EXHAUSTED} "exceeds maximum size", which it reads as FATAL, for progress nobody reads.
     */
    private void sendUpdate(byte[] payload) {
        ProcessRangeResponse update = ProcessRangeResponse.newBuilder()
                .setUpdate(Update.newBuilder().setPayload(ByteString.copyFrom(payload))).build();
        if (update.getSerializedSize() > maxMessageSize) {
            LOG.warn("job {}: an update of {} bytes was not sent: over the limit of {} (maxMessageSize)", job.key(),
                    payload.length, maxMessageSize);
            return;
        }
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

    /**
     * The {@link JobContext} of one job; {@code owner} is null outside a server, and {@code outputs} then too (so a
     * write there is refused before {@code owner} is read).
     */
    private record Context(Job job, byte[] work, JobOutputs outputs, ServerJob owner) implements JobContext {

        @Override
        public void writeOutput(byte[] output) throws IOException, Tier2Exception {
            if (outputs == null) {
                throw new IllegalStateException("this tier2 has no outputs to write job " + job.key() + " to:"
                        + " build its Tier2Server with outputs(...), or start Tier2Main with --outputs");
            }
            owner.writes.readLock().lock();
            try {
                // A stop (the execution limit, the server stopping, the client cancelling) ends the call at once,
                // before the worker returns: its client was told then (or, cancelling, wants nothing), and may re-run
                // the job just the same.
                Why stop = owner.stoppedAs();
                if (owner.returned || stop != null) {
                    // the client was told how the job ended: a write now lands after it may have read, or re-run it
                    String why = "job " + job.requestId() + " segment " + job.key().segment() + " stage "
                            + job.key().stage() + (stop == null
                                    ? " has ended: its output must be written before the worker returns"
                                    : " was stopped (" + stop + "): its output is not taken");
                    LOG.warn("an output write refused: {}", why);
                    throw new IllegalStateException(why);
                }
                outputs.write(job.requestId(), job.key().segment(), output);
            } finally {
                owner.writes.readLock().unlock();
            }
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
