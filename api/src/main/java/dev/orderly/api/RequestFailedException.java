package dev.orderly.api;

import java.util.Objects;
import java.util.Optional;

/**
 * A request that could not deliver every segment. Its message says which unit, why, and how many times, for
 * example {@code segment 12 stage 2 failed 5 times, giving up: stream reset}; its cause is the last error.
 *
 * <p>The engine's exceptions also carry {@linkplain #partialResult() how far the request got}. When the caller of
 * {@code Engine.run} is interrupted, {@code run} throws {@link InterruptedException} as its signature says; that
 * exception then carries, as its only {@linkplain Throwable#getSuppressed() suppressed} exception, a
 * {@code RequestFailedException} ("request r-7 cancelled by interrupt") whose {@link #partialResult()} is the
 * figures so far: use {@link #partialResultOf(Throwable)} to get them from either.
 */
public final class RequestFailedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient JobKey key;
    private final transient RequestResult partialResult;

    /**
     * A failure of one unit.
     *
     * @param key the unit that failed
     * @param message which unit, why and how many times
     * @param cause the last error, or null
     */
    public RequestFailedException(JobKey key, String message, Throwable cause) {
        this(Objects.requireNonNull(key, "key"), message, cause, null);
    }

    /**
     * A failure of the request that no single unit caused (for example, the client threw).
     *
     * @param message what failed and why
     * @param cause the error, or null
     */
    public RequestFailedException(String message, Throwable cause) {
        this(null, message, cause, null);
    }

    private RequestFailedException(JobKey key, String message, Throwable cause, RequestResult partialResult) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.key = key;
        this.partialResult = partialResult;
    }

    /**
     * A copy of this exception (same message, cause, unit and stack trace) that carries {@code partialResult}, the
     * figures of the request up to its end.
     */
    public RequestFailedException withPartialResult(RequestResult partialResult) {
        RequestFailedException copy = new RequestFailedException(key, getMessage(), getCause(),
                Objects.requireNonNull(partialResult, "partialResult"));
        copy.setStackTrace(getStackTrace());
        for (Throwable suppressed : getSuppressed()) {
            copy.addSuppressed(suppressed);
        }
        return copy;
    }

    /** Returns the unit that failed, when one unit caused the failure. */
    public Optional<JobKey> key() {
        return Optional.ofNullable(key);
    }

    /**
     * The request's figures up to its failure or cancellation: {@code segmentsDelivered} is the first segment not
     * delivered minus the plan's start, so a caller can start again from there. Always present on the exceptions the
     * engine throws; empty on one built without it.
     */
    public Optional<RequestResult> partialResult() {
        return Optional.ofNullable(partialResult);
    }

    /**
     * The partial result carried by what {@code Engine.run} threw: a {@code RequestFailedException}'s own, or that of
     * the {@code RequestFailedException} an {@link InterruptedException} carries as suppressed.
     */
    public static Optional<RequestResult> partialResultOf(Throwable thrown) {
        if (thrown instanceof RequestFailedException e) {
            return e.partialResult();
        }
        if (thrown != null) {
            for (Throwable suppressed : thrown.getSuppressed()) {
                if (suppressed instanceof RequestFailedException e && e.partialResult().isPresent()) {
                    return e.partialResult();
                }
            }
        }
        return Optional.empty();
    }
}
