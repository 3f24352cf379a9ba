package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code start()} of a Tier2Server whose main port was taken throws {@link IOException}, and a retry once
 * the port is free starts it; but one whose health port was taken had its main listener started and shut down, and a
 * retry, the port free, threw {@code IllegalStateException: Already started} from gRPC, with nothing listening: the
 * server could never start. A retry now starts it, health port and all.
 */
@Timeout(60)
class ATier2ServerWhoseHealthPortWasTakenStartsOnceItIsFreeTest {

    @Test
    void aRetryAfterTheHealthPortWasFreedStartsTheServer() throws Exception {
        Tier2Server server;
        int healthPort;
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            healthPort = taken.getLocalPort();
            server = Tier2Server.builder().host("127.0.0.1").worker((job, work) -> { }).healthPort(healthPort)
                    .drainGrace(Duration.ZERO).build();
            IOException e = assertThrows(IOException.class, server::start);
            assertTrue(e.getMessage().contains("health port"), e.getMessage());
        }
        ManagedChannel channel = null;
        try {
            server.start(); // the health port is free now
            assertEquals(healthPort, server.healthPort());
            assertTrue(server.port() > 0, "port " + server.port());
            channel = NettyChannelBuilder.forAddress("127.0.0.1", server.healthPort()).usePlaintext().build();
            assertEquals(ServingStatus.SERVING, HealthGrpc.newBlockingStub(channel).withDeadlineAfter(10, SECONDS)
                    .check(HealthCheckRequest.newBuilder().setService("").build()).getStatus());
        } finally {
            server.close();
            if (channel != null) {
                channel.shutdownNow().awaitTermination(5, SECONDS);
            }
        }
    }
}
