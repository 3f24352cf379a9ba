package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@link GrpcTier2Client#close()} says a dial from then on is FATAL, but a dial already in flight as the
 * client closed was not told so. One waiting for the bearer token supplier waited on for the whole admission timeout
 * (10 s by default; a minute here, as a deployment may give) and then was UNREACHABLE "the bearer token supplier gave
 * no token within …", blaming the supplier; one waiting to be admitted was UNREACHABLE in gRPC's words ("UNAVAILABLE
 * Channel shutdownNow invoked"). Both are free and never counted, so the request dialed again before it failed. A
 * dial cut by the client's own close is FATAL at once and says the client was closed.
 */
@Timeout(60)
class ADialInFlightWhenTheClientClosesEndsAtOnceAsClosedTest {

    private static final Duration LONG = Duration.ofMinutes(10);

    private static CompletableFuture<Tier2Exception> dialInBackground(GrpcTier2Client client) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                client.dial(new Job("r", new JobKey(0, 0), 1)).close();
                return null;
            } catch (Tier2Exception e) {
                return e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }, r -> Thread.ofVirtual().start(r));
    }

    private static Tier2Exception endOf(CompletableFuture<Tier2Exception> dial) throws Exception {
        try {
            Tier2Exception e = dial.get(20, SECONDS);
            assertTrue(e != null, "the dial got in");
            return e;
        } catch (TimeoutException e) {
            fail("the dial still waits 20 s after its client closed (its admission timeout is " + LONG + ")");
            throw e;
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        }
    }

    @Test
    void aDialWaitingForItsBearerTokenEndsAtTheCloseAsFatal() throws Exception {
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        Tier2Server server = Tier2Server.builder().worker((job, work) -> { }).drainGrace(Duration.ZERO)
                .bearerTokens(List.of("t")).build().start();
        GrpcTier2Client client = GrpcTier2Client.builder().target("127.0.0.1:" + server.port())
                .admissionTimeout(LONG)
                .bearerToken(() -> {
                    asked.countDown();
                    try {
                        never.await(); // a vault out of reach that no interrupt wakes
                    } catch (InterruptedException e) {
                        // deaf to it, as a blocking client library may be
                    }
                    return "t";
                }).build();
        try {
            CompletableFuture<Tier2Exception> dial = dialInBackground(client);
            assertTrue(asked.await(20, SECONDS), "the supplier was never asked");
            client.close();
            Tier2Exception e = endOf(dial);
            assertEquals(Kind.FATAL, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        } finally {
            never.countDown();
            client.close();
            server.close();
        }
    }

    @Test
    void aDialWaitingToBeAdmittedEndsAtTheCloseAsFatal() throws Exception {
        // a tier2 that takes the call and never answers it (a wedged process)
        CountDownLatch arrived = new CountDownLatch(1);
        ServerServiceDefinition silent = ServerServiceDefinition.builder(Tier2Protocol.SERVICE_NAME)
                .addMethod(Tier2Protocol.PROCESS_RANGE, ServerCalls.asyncServerStreamingCall(
                        (request, responses) -> arrived.countDown()))
                .build();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(silent)
                .build().start();
        GrpcTier2Client client = GrpcTier2Client.builder().target("127.0.0.1:" + server.getPort())
                .healthChecking(false).admissionTimeout(LONG).build();
        try {
            CompletableFuture<Tier2Exception> dial = dialInBackground(client);
            assertTrue(arrived.await(20, SECONDS), "the dial never reached the tier2");
            client.close();
            Tier2Exception e = endOf(dial);
            assertEquals(Kind.FATAL, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        } finally {
            client.close();
            server.shutdownNow().awaitTermination(5, SECONDS);
        }
    }
}
