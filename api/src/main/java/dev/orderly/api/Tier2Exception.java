package dev.orderly.api;

import java.util.Objects;

/**
 * Why a job did not get in, or failed after it got in.
 *
 * <p>The {@linkplain Kind kinds} split like gRPC's retry progress: {@link Kind#REFUSED} and
 * {@link Kind#UNREACHABLE} mean nothing ran ({@link #neverRan()}), so a retry is free and is not counted;
 * {@link Kind#EXECUTION_TIMEOUT} and {@link Kind#RETRYABLE} mean the job ran and failed, so retries are counted and
 * bounded; {@link Kind#FATAL} fails the request at once.
 */
public final class Tier2Exception extends Exception {

    private static final long serialVersionUID = 1L;

    /** What went wrong, and therefore how the engine retries. */
    public enum Kind {
        /** The tier2 is at its concurrent-request limit and turned the job away; nothing ran. */
        REFUSED,
        /** No tier2 could be reached: connection refused, no healthy upstream; nothing ran. */
        UNREACHABLE,
        /** The job got in and ran past its execution deadline. */
        EXECUTION_TIMEOUT,
        /** The job got in and failed with an error worth another try. */
        RETRYABLE,
        /** The job failed with an error no retry can fix; the request fails. */
        FATAL
    }

    private final Kind kind;

    private Tier2Exception(Kind kind, String message, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** The tier2 refused the job at its concurrent-request limit; nothing ran. */
    public static Tier2Exception refused(String message) {
        return new Tier2Exception(Kind.REFUSED, message, null);
    }

    /** No tier2 could be reached (connection refused, no healthy upstream); nothing ran. */
    public static Tier2Exception unreachable(String message) {
        return new Tier2Exception(Kind.UNREACHABLE, message, null);
    }

    /** The job got in and ran past its execution deadline. */
    public static Tier2Exception executionTimeout(String message) {
        return new Tier2Exception(Kind.EXECUTION_TIMEOUT, message, null);
    }

    /** The job got in and failed with an error worth another try; {@code cause} may be null. */
    public static Tier2Exception retryable(String message, Throwable cause) {
        return new Tier2Exception(Kind.RETRYABLE, message, cause);
    }

    /** The job failed with an error no retry can fix; {@code cause} may be null. */
    public static Tier2Exception fatal(String message, Throwable cause) {
        return new Tier2Exception(Kind.FATAL, message, cause);
    }

    /** Returns what went wrong. */
    public Kind kind() {
        return kind;
    }

    /** Returns true when nothing ran on a tier2 ({@link Kind#REFUSED} or {@link Kind#UNREACHABLE}). */
    public boolean neverRan() {
        return kind == Kind.REFUSED || kind == Kind.UNREACHABLE;
    }
}
