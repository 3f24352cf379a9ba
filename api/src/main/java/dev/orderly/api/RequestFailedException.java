package dev.orderly.api;

import java.util.Objects;
import java.util.Optional;

/**
 * A request that could not deliver every segment. Its message says which unit, why, and how many times, for
 * example {@code segment 12 stage 2 failed 5 times, giving up: stream reset}; its cause is the last error.
 */
public final class RequestFailedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient JobKey key;

    /**
     * A failure of one unit.
     *
     * @param key the unit that failed
     * @param message which unit, why and how many times
     * @param cause the last error, or null
     */
    public RequestFailedException(JobKey key, String message, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.key = Objects.requireNonNull(key, "key");
    }

    /**
     * A failure of the request that no single unit caused (for example, the client threw).
     *
     * @param message what failed and why
     * @param cause the error, or null
     */
    public RequestFailedException(String message, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.key = null;
    }

    /** Returns the unit that failed, when one unit caused the failure. */
    public Optional<JobKey> key() {
        return Optional.ofNullable(key);
    }
}
