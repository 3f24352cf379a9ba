package dev.orderly.grpc;

import dev.orderly.api.Tier2Exception;
import io.grpc.Status;
import java.io.IOException;

/**
 * How the end of a {@code ProcessRange} call becomes a {@link Tier2Exception}. The rules are applied in order; the
 * first that matches decides:
 * <ol>
 *   <li>{@code RESOURCE_EXHAUSTED} whose description says a message {@value #TOO_LARGE}: FATAL (the same work
 *       would be too large on every instance, at every attempt);
 *   <li>before {@code Admitted}, {@code RESOURCE_EXHAUSTED}, or any status whose description says
 *       {@value Tier2Protocol#OVERLOADED}: REFUSED (the tier2 was full and ran nothing; after {@code Admitted} the job
 *       ran, and the rules below decide);
 *   <li>{@code UNAVAILABLE} or {@code DEADLINE_EXCEEDED} before {@code Admitted}: UNREACHABLE (refused connect, no
 *       healthy instance, draining, or a deadline that passed before any instance took the job: nothing ran);
 *   <li>{@code DEADLINE_EXCEEDED} after {@code Admitted}: EXECUTION_TIMEOUT (the client's {@code callTimeout}, or
 *       the tier2's execution limit);
 *   <li>{@code INVALID_ARGUMENT}, {@code FAILED_PRECONDITION}, {@code PERMISSION_DENIED}, {@code UNAUTHENTICATED},
 *       {@code UNIMPLEMENTED}: FATAL (no retry can fix them: a misconfigured fleet fails loudly);
 *   <li>anything else, {@code UNAVAILABLE} and {@code RESOURCE_EXHAUSTED} after {@code Admitted} included (the
 *       instance died mid-job, a proxy reset the stream): RETRYABLE.
 * </ol>
 * A dial that is neither admitted nor refused within the client's admission timeout is UNREACHABLE too (the client
 * cancels it). Only REFUSED and UNREACHABLE mean nothing ran; that is why "before {@code Admitted}" matters, and is
 * tracked by the call, since gRPC reports every failure the same way at close.
 */
final class StatusMapping {

    /** What grpc-java says of a message over the receiver's limit ("gRPC message exceeds maximum size N: M"). */
    static final String TOO_LARGE = "exceeds maximum size";

    /**
     * What grpc-java says of a connection the other side closed with no HTTP/2 answer at all: what a client without
     * TLS gets from a tier2 that requires it (the tier2 reads the HTTP/2 preface as a bad TLS record and hangs up).
     */
    static final String CLOSED_UNANSWERED = "Network closed for unknown reason";

    /** How {@link BearerToken} begins the description of a call it fails itself, before anything is sent. */
    static final String SUPPLIER = "the bearer token supplier";

    private StatusMapping() {
    }

    /**
     * @param status how the call was closed (not OK)
     * @param admitted whether the tier2 had sent {@code Admitted} before it closed
     * @param what the job, for the message
     * @param plaintext whether the client speaks without TLS: a connection closed unanswered before {@code Admitted}
     *     then says what the likely cause is and what to give
     */
    static Tier2Exception toException(Status status, boolean admitted, String what, boolean plaintext) {
        String description = status.getDescription() == null ? "" : status.getDescription();
        String message = what + ": " + status.getCode() + (description.isEmpty() ? "" : " " + description)
                + why(status.getCause(), description);
        // A tier2 that requires TLS closes a plaintext client's connection on its first bytes: as a close, or, in
        // some runs, as a reset.
        if (plaintext && !admitted && status.getCode() == Status.Code.UNAVAILABLE
                && (description.contains(CLOSED_UNANSWERED) || resetByPeer(status.getCause()))) {
            message += " (this client speaks plaintext: if the tier2 requires TLS, give the client credentials(…))";
        }
        if (status.getCode() == Status.Code.RESOURCE_EXHAUSTED && description.contains(TOO_LARGE)) {
            return Tier2Exception.fatal(message + " (raise maxMessageSize on both the client and the tier2)",
                    status.asException());
        }
        // Only before Admitted: after it the job ran, whatever the status says (a worker's execution timeout may quote
        // an upstream's "overloaded"), and a refusal is never counted, so a job that ran must not be one.
        if (!admitted && (status.getCode() == Status.Code.RESOURCE_EXHAUSTED
                || description.contains(Tier2Protocol.OVERLOADED))) {
            return Tier2Exception.refused(message);
        }
        return switch (status.getCode()) {
            case UNAVAILABLE -> admitted
                    ? Tier2Exception.retryable(message + " (after the tier2 admitted the job)", status.asException())
                    : Tier2Exception.unreachable(message);
            case DEADLINE_EXCEEDED -> admitted
                    ? Tier2Exception.executionTimeout(message)
                    : Tier2Exception.unreachable(message + " (before any tier2 admitted the job)");
            // the client's own BearerToken fails a call whose supplier gave nothing it could send: none was sent
            case UNAUTHENTICATED -> description.startsWith(SUPPLIER)
                    ? Tier2Exception.fatal(message + " (nothing was sent: check the client's bearerToken supplier)",
                            status.asException())
                    : Tier2Exception.fatal(message + " (the tier2 turned the bearer token away: check"
                            + " bearerToken on the client and the tier2's tokens)", status.asException());
            case INVALID_ARGUMENT, FAILED_PRECONDITION, PERMISSION_DENIED, UNIMPLEMENTED ->
                    Tier2Exception.fatal(message, status.asException());
            default -> Tier2Exception.retryable(message, status.asException());
        };
    }

    /**
     * What a failure that happened on this side says beyond the status's description, as {@code " (because …)"}, or
     * "" when there is no cause or the description says it already. A TLS handshake that fails is {@code UNAVAILABLE
     * "io exception"} or {@code "ssl exception"}; why (an untrusted CA, a certificate that does not name the host, no
     * client certificate for an mTLS tier2) is only in the cause, at the bottom of its chain: without it the message
     * a request that makes no progress logs gives the user nothing to go on.
     */
    private static String why(Throwable cause, String description) {
        if (cause == null) {
            return "";
        }
        Throwable root = cause;
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 16; depth++) {
            root = root.getCause();
        }
        String said = root.getMessage() == null ? "" : root.getMessage();
        if (!said.isEmpty() && description.contains(said)) {
            return "";
        }
        return " (because " + root.getClass().getSimpleName() + (said.isEmpty() ? "" : ": " + said) + ")";
    }

    /** Whether an {@link IOException} in {@code cause}'s chain says the peer reset the connection. */
    private static boolean resetByPeer(Throwable cause) {
        Throwable t = cause;
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t instanceof IOException && t.getMessage() != null && t.getMessage().contains(RESET_BY_PEER)) {
                return true;
            }
        }
        return false;
    }

    /** How the kernel's ECONNRESET reads in the JDK's and Netty's I/O exceptions. */
    private static final String RESET_BY_PEER = "Connection reset by peer";

    /** A {@code Failed} message from the tier2: the job ran and failed. */
    static Tier2Exception failed(String reason, boolean fatal, String what) {
        String message = what + " failed on the tier2: " + reason;
        return fatal ? Tier2Exception.fatal(message, null) : Tier2Exception.retryable(message, null);
    }

    /** The stream ended (status OK) without {@code Completed} or {@code Failed}. */
    static Tier2Exception endedWithoutCompleted(boolean admitted, String what) {
        return Tier2Exception.retryable(what + ": the stream ended without Completed"
                + (admitted ? "" : " (and without Admitted)"), null);
    }
}
