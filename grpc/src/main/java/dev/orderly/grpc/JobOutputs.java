package dev.orderly.grpc;

import dev.orderly.api.Tier2Exception;
import java.io.IOException;

/**
 * Where a tier2 writes its jobs' outputs, for every request: the tier2 side of the tier1's
 * {@link dev.orderly.api.OutputStore}. The usual layout gives each request its own store under one root (the
 * {@code Tier2Main} launcher keeps request {@code R}'s outputs under {@code <outputs>/R/}), so that a tier1 reads
 * request {@code R} from that store alone.
 *
 * <p>Implementations must be thread-safe: the jobs of a tier2 write at the same time.
 */
@FunctionalInterface
public interface JobOutputs {

    /**
     * Writes the output of one segment of one request, as one write: a reader sees all of it or nothing.
     *
     * @param requestId the request the job belongs to
     * @param segment the job's segment
     * @param output the output, as the tier1's client will read it
     * @throws IOException if the store fails (the job fails, and is retried)
     * @throws Tier2Exception of kind FATAL if this request's outputs can never be written here (an id that can not
     *         name a place, say)
     */
    void write(String requestId, long segment, byte[] output) throws IOException, Tier2Exception;
}
