package dev.orderly.grpc;

import dev.orderly.api.Job;
import dev.orderly.api.Tier2Exception;
import java.io.IOException;

/**
 * What a {@link JobWorker} gets for one admitted job beyond the job itself: where its output goes and a way to report
 * progress. One context per job, valid until the worker returns; the server makes it, the worker only uses it.
 *
 * <p>Where the output goes is the tier2's business, not the worker's: the process is started with it (for
 * {@code Tier2Main}, {@code --outputs=DIR} or {@code --outputs=s3://bucket/prefix}), and {@link #writeOutput} puts the
 * output of this job's segment in the place the tier1 reads for this job's request. A worker that writes its output
 * itself may ignore this.
 *
 * <p>Thread-safe: a worker may call it from threads of its own while {@link JobWorker#run(JobContext)} runs.
 */
public interface JobContext {

    /**
     * The job: request id, segment, stage, dial attempt, the segment the client reads and the request's stage count
     * (0 when the tier1 did not send it).
     */
    Job job();

    /** The opaque bytes the tier1 sent with the job (empty when none). The same array on every call: do not change it. */
    byte[] work();

    /**
     * Writes this job's output: the output of segment {@code job().key().segment()} of request
     * {@code job().requestId()}, where the tier1 reads it. One write, all of it or nothing for a reader; a second
     * write replaces the first. Only the last stage's output is read by the tier1: when the client says how many stages
     * the request has ({@code GrpcTier2Client} does), a lower stage's write is dropped (one DEBUG line), since it would
     * replace the last stage's output in the segment's one place. A write from another thread still
     * going on when the worker returns ends before the tier1 is told the job ended; one going on when the job is
     * stopped (its execution limit, the tier2 stopping, its client cancelling) may end after the tier1 was told, since
     * a stop does not wait for the worker; a write that begins after either is refused.
     *
     * @throws IOException if the store fails; thrown out of the worker it is a retryable failure
     * @throws Tier2Exception of kind FATAL if the request's outputs can never be written here; thrown out of the
     *         worker it fails the request
     * @throws IllegalStateException if this tier2 was built without outputs ({@link Tier2Server.Builder#outputs}), or
     *         if the worker has already returned, or the job was stopped (its execution limit, the tier2 stopping,
     *         its client cancelling): the client was told how the job ended, or wants nothing more of it; one WARN
     *         line says so
     */
    void writeOutput(byte[] output) throws IOException, Tier2Exception;

    /**
     * Sends an {@code Update} with {@code payload} to the tier1: progress, which Orderly passes on without reading.
     * After the job has ended (or its call was cancelled) it does nothing; an update larger than the tier2's
     * {@code maxMessageSize} is not sent either (one WARN line says so), since the client would fail the job over it.
     */
    void sendUpdate(byte[] payload);
}
