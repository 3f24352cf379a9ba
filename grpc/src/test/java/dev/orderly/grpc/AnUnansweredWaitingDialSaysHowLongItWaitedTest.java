package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A dial that asks to wait ({@code admissionWait}) is given {@code admissionTimeout} on top of that wait before it
 * counts as unanswered. Its UNREACHABLE message said it was "neither admitted nor refused within" the admission
 * timeout alone (300 ms here) after it had waited 1.3 s, and named only admissionTimeout: a user raising that setting
 * to cure the error would be raising the wrong one.
 */
@Timeout(30)
class AnUnansweredWaitingDialSaysHowLongItWaitedTest {

    @Test
    void theMessageNamesTheWholeWaitAndBothSettings() throws Exception {
        // an instance that takes the call and never answers: neither Admitted nor a refusal
        Server silent = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(ServerServiceDefinition.builder(Tier2Protocol.SERVICE_NAME)
                        .addMethod(Tier2Protocol.PROCESS_RANGE,
                                ServerCalls.asyncServerStreamingCall((request, responses) -> { }))
                        .build())
                .build().start();
        GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + silent.getPort()))
                .healthChecking(false).admissionTimeout(Duration.ofMillis(300)).admissionWait(Duration.ofSeconds(1))
                .build();
        try {
            long t0 = System.nanoTime();
            Tier2Exception e = assertThrows(Tier2Exception.class,
                    () -> client.dial(new Job("r", new JobKey(0, 0), 1)).close());
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertEquals(Tier2Exception.Kind.UNREACHABLE, e.kind(), e.getMessage());
            assertTrue(waitedMillis >= 1300, "the dial gave up after " + waitedMillis + " ms");
            assertTrue(e.getMessage().contains("1300 ms"), e.getMessage());
            assertTrue(e.getMessage().contains("admissionWait") && e.getMessage().contains("admissionTimeout"),
                    e.getMessage());
        } finally {
            client.close();
            silent.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
