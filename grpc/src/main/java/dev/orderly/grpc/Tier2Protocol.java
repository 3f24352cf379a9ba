package dev.orderly.grpc;

import dev.orderly.grpc.proto.ProcessRangeRequest;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;

/**
 * The one method of {@code orderly.tier2.v1.Tier2}, described with grpc-java's public API. protoc generates the
 * messages at build time; grpc-java's native code generator is not used, so this is the whole of what it would have
 * generated for the service.
 */
final class Tier2Protocol {

    /** The full service name, as in {@code tier2.proto}. */
    static final String SERVICE_NAME = "orderly.tier2.v1.Tier2";

    /** What a tier2 at its limit says, with {@code RESOURCE_EXHAUSTED}; older tier2s say it under {@code UNKNOWN}. */
    static final String OVERLOADED = "service currently overloaded";

    /** {@code rpc ProcessRange(ProcessRangeRequest) returns (stream ProcessRangeResponse)}. */
    static final MethodDescriptor<ProcessRangeRequest, ProcessRangeResponse> PROCESS_RANGE =
            MethodDescriptor.<ProcessRangeRequest, ProcessRangeResponse>newBuilder()
                    .setType(MethodDescriptor.MethodType.SERVER_STREAMING)
                    .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE_NAME, "ProcessRange"))
                    .setRequestMarshaller(ProtoUtils.marshaller(ProcessRangeRequest.getDefaultInstance()))
                    .setResponseMarshaller(ProtoUtils.marshaller(ProcessRangeResponse.getDefaultInstance()))
                    .build();

    private Tier2Protocol() {
    }
}
