package dev.orderly.archtests.grpcviolations;

import io.grpc.Status;

/** Deliberately bad: stands in for an engine class that knows the transport. {@link GrpcRulesTest} must catch it. */
public final class EngineClassThatSeesGrpc {

    private EngineClassThatSeesGrpc() {
    }

    /** Maps like the gRPC client should, but in the wrong place. */
    public static boolean refused(Status status) {
        return status.getCode() == Status.Code.RESOURCE_EXHAUSTED;
    }
}
