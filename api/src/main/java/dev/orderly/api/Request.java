package dev.orderly.api;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
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
 * @param deadline how long the request may take from the call to {@code Engine.run}, or null for no deadline (the
 *     default); see {@link #withDeadline(Duration)}
 * @param resume whether segments whose output is already in {@code outputs} are delivered from it instead of being
 *     run again (default false); see {@link #withResume(boolean)}
 */
public record Request(
        String id,
        RequestPlan plan,
        Tier2Client tier2,
        OutputStore outputs,
        SegmentConsumer client,
        RequestListener listener,
        Duration deadline,
        boolean resume) {

    /**
     * @throws NullPointerException naming the field that is null ({@code deadline} may be null)
     * @throws IllegalArgumentException if {@code id} is blank or {@code deadline} is zero or negative
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
        if (deadline != null && (deadline.isZero() || deadline.isNegative())) {
            throw new IllegalArgumentException("deadline must be > 0, was " + deadline);
        }
    }

    /** A request with no deadline that runs every segment (no resume). */
    public Request(String id, RequestPlan plan, Tier2Client tier2, OutputStore outputs, SegmentConsumer client,
            RequestListener listener) {
        this(id, plan, tier2, outputs, client, listener, null, false);
    }

    /** A request with a random id and no listener. */
    public static Request of(RequestPlan plan, Tier2Client tier2, OutputStore outputs, SegmentConsumer client) {
        return new Request(UUID.randomUUID().toString(), plan, tier2, outputs, client, RequestListener.NONE);
    }

    /** A copy of this request with another id. */
    public Request withId(String id) {
        return new Request(id, plan, tier2, outputs, client, listener, deadline, resume);
    }

    /** A copy of this request with another listener. */
    public Request withListener(RequestListener listener) {
        return new Request(id, plan, tier2, outputs, client, listener, deadline, resume);
    }

    /**
     * A copy of this request that must end within {@code deadline} of the call to {@code Engine.run}. Past it the
     * request fails with a {@link RequestFailedException} that says how far it got and what it was waiting for, and
     * everything still running is cancelled, as for any failure. The deadline is checked whenever the engine waits for
     * the client's next segment and after each delivery but the last; a {@link SegmentConsumer} that blocks is
     * back-pressure and is not cut short by it. So a client still in {@code accept} of the last segment when the
     * deadline passes ends the request well once it returns: every segment was delivered, and {@code run} returns
     * the result, its {@code elapsed} past the deadline. It also bounds the engine's calls of the
     * {@link OutputStore}: a read (or {@code contains}) still running when the deadline passes is interrupted; a store
     * whose read ignores interrupts can still hold {@code run} until the read returns. The failure's cause is the last
     * {@link Tier2Exception} any job of the request heard, if any.
     *
     * @throws NullPointerException if {@code deadline} is null
     * @throws IllegalArgumentException if {@code deadline} is zero or negative
     */
    public Request withDeadline(Duration deadline) {
        return new Request(id, plan, tier2, outputs, client, listener, Objects.requireNonNull(deadline, "deadline"),
                resume);
    }

    /**
     * A copy of this request that, when {@code resume} is true, delivers each segment whose output is already in the
     * {@link OutputStore} from the store, in order, as if just computed, instead of running it again: a request killed
     * midway and started again redoes only what is missing. The store is asked lazily, one segment at a time as the
     * look-ahead window moves, so memory stays bounded however long the request. A segment found in the store counts
     * as done at every stage (its intermediate state is taken to be where the earlier run left it).
     */
    public Request withResume(boolean resume) {
        return new Request(id, plan, tier2, outputs, client, listener, deadline, resume);
    }

    /** The deadline, if one was set. */
    public Optional<Duration> deadlineIfSet() {
        return Optional.ofNullable(deadline);
    }
}
