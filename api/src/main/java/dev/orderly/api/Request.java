package dev.orderly.api;

import java.util.Objects;
import java.util.UUID;

/**
 * One client request: what to run, where, and who reads the result.
 *
 * @param id the request id, used in every log line and in every {@link Job}
 * @param plan the segments, stages and workers
 * @param tier2 the fleet to dial
 * @param outputs where the last stage's outputs are read from
 * @param client who receives each segment's output, in order
 * @param listener who is told of each event
 */
public record Request(
        String id,
        RequestPlan plan,
        Tier2Client tier2,
        OutputStore outputs,
        SegmentConsumer client,
        RequestListener listener) {

    /**
     * @throws NullPointerException naming the field that is null
     * @throws IllegalArgumentException if {@code id} is blank
     */
    public Request {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(tier2, "tier2");
        Objects.requireNonNull(outputs, "outputs");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(listener, "listener");
        if (id.isBlank()) {
            throw new IllegalArgumentException("id must not be blank, was '" + id + "'");
        }
    }

    /** A request with a random id and no listener. */
    public static Request of(RequestPlan plan, Tier2Client tier2, OutputStore outputs, SegmentConsumer client) {
        return new Request(UUID.randomUUID().toString(), plan, tier2, outputs, client, RequestListener.NONE);
    }

    /** A copy of this request with another id. */
    public Request withId(String id) {
        return new Request(id, plan, tier2, outputs, client, listener);
    }

    /** A copy of this request with another listener. */
    public Request withListener(RequestListener listener) {
        return new Request(id, plan, tier2, outputs, client, listener);
    }
}
