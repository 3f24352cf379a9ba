package dev.orderly.grpc;

import dev.orderly.api.Tier2Exception;
import io.grpc.Status;

/**
 * How the end of a {@code ProcessRange} call becomes a {@link Tier2Exception}. The rules are applied in order; the
 * first that matches decides:
 * <ol>
 *   <li>{@code RESOURCE_EXHAUSTED}, or any status whose description says {@value Tier2Protocol#OVERLOADED}: REFUSED
 *       (the tier2 was full and ran nothing);
 *   <li>{@code UNAVAILABLE} before {@code Admitted}: UNREACHABLE (refused connect, no healthy instance, draining);
 *   <li>{@code DEADLINE_EXCEEDED}: EXECUTION_TIMEOUT;
 *   <li>{@code INVALID_ARGUMENT}, {@code FAILED_PRECONDITION}, {@code PERMISSION_DENIED}, {@code UNAUTHENTICATED},
 *       {@code UNIMPLEMENTED}: FATAL (no retry can fix them);
 *   <li>anything else, {@code UNAVAILABLE} after {@code Admitted} included (the instance died mid-job): RETRYABLE.
 * </ol>
 * Only REFUSED and UNREACHABLE mean nothing ran; that is why "before {@code Admitted}" matters for {@code UNAVAILABLE}
 * and is tracked by the call, since gRPC reports every failure the same way at close.
 */
final class StatusMapping {

    private StatusMapping() {
    }

    /**
     * @param status how the call was closed (not OK)
     * @param admitted whether the tier2 had sent {@code Admitted} before it closed
     * @param what the job, for the message
     */
    static Tier2Exception toException(Status status, boolean admitted, String what) {
        String description = status.getDescription() == null ? "" : status.getDescription();
        String message = what + ": " + status.getCode() + (description.isEmpty() ? "" : " " + description);
        if (status.getCode() == Status.Code.RESOURCE_EXHAUSTED || description.contains(Tier2Protocol.OVERLOADED)) {
            return Tier2Exception.refused(message);
        }
        return switch (status.getCode()) {
            case UNAVAILABLE -> admitted
                    ? Tier2Exception.retryable(message + " (after the tier2 admitted the job)", status.asException())
                    : Tier2Exception.unreachable(message);
            case DEADLINE_EXCEEDED -> Tier2Exception.executionTimeout(message);
            case INVALID_ARGUMENT, FAILED_PRECONDITION, PERMISSION_DENIED, UNAUTHENTICATED, UNIMPLEMENTED ->
                    Tier2Exception.fatal(message, status.asException());
            default -> Tier2Exception.retryable(message, status.asException());
        };
    }

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
