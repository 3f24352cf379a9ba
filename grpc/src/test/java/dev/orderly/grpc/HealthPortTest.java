package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.grpc.proto.ProcessRangeRequest;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code healthPort} serves the health service alone, in plaintext, beside the tier2's own port: what a probe that
 * speaks no TLS (Kubernetes' gRPC probe) asks. The jobs' service is not there.
 */
@Timeout(60)
class HealthPortTest {

    @Test
    void healthPortAnswersTheOverallStatusAndServesNoJobs() throws Exception {
        Tier2Server server = Tier2Server.builder().worker((job, work) -> { }).port(0).healthPort(0).build().start();
        ManagedChannel channel = null;
        try {
            assertNotEquals(server.port(), server.healthPort());
            channel = NettyChannelBuilder.forAddress("127.0.0.1", server.healthPort()).usePlaintext().build();
            HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(10, SECONDS);
            assertEquals(ServingStatus.SERVING,
                    health.check(HealthCheckRequest.newBuilder().setService("").build()).getStatus());
            ManagedChannel c = channel;
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () ->
                    ClientCalls.blockingServerStreamingCall(c, Tier2Protocol.PROCESS_RANGE,
                            CallOptions.DEFAULT.withDeadlineAfter(10, SECONDS),
                            ProcessRangeRequest.newBuilder().setRequestId("r").setAttempt(1).build()).next());
            assertEquals(Status.Code.UNIMPLEMENTED, e.getStatus().getCode());
        } finally {
            server.close();
            if (channel != null) {
                channel.shutdownNow().awaitTermination(5, SECONDS);
            }
        }
        try (Tier2Server none = Tier2Server.builder().worker((job, work) -> { }).build()) {
            assertEquals(-1, none.healthPort());
        }
    }

    @Test
    void healthPortOutOfRangeIsRejectedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tier2Server.builder().healthPort(70_000));
        assertEquals("healthPort must be between 0 and 65535, was 70000", e.getMessage());
    }
}
