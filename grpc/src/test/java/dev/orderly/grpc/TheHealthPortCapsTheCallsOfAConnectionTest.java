package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The health-only port ({@code healthPort}, {@code Tier2Main --health-port}) is plaintext, needs no token and no
 * client certificate, and on a pod listens on every interface: it is the tier2's one door that anyone who reaches the
 * host may open. The abuse limit the guide promises ("at most 4 × maxConcurrentJobs + 16 concurrent calls per
 * connection") must hold there too.
 *
 * <p>The bug: the health port was a bare Netty server, with no cap on the calls of a connection: one connection held
 * any number of {@code Watch} streams open (each an observer the server keeps and writes to at every change of the
 * status), where the tier2's own port holds 4 × maxConcurrentJobs + 16.
 */
@Timeout(60)
class TheHealthPortCapsTheCallsOfAConnectionTest {

    @Test
    void watchesPastTheCapOnOneConnectionAreNotServed() throws Exception {
        Tier2Server server = Tier2Server.builder().maxConcurrentJobs(1).worker((job, work) -> { }).port(0)
                .healthPort(0).build().start();
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.healthPort(),
                InsecureChannelCredentials.create()).build();
        try {
            int cap = 4 * 1 + 16;
            AtomicInteger answered = new AtomicInteger();
            HealthGrpc.HealthStub health = HealthGrpc.newStub(channel);
            for (int i = 0; i < cap + 30; i++) {
                // A watch answers at once with the current status, then stays open: one open stream each.
                health.watch(HealthCheckRequest.newBuilder().setService("").build(), new StreamObserver<>() {
                    private boolean first = true;

                    @Override
                    public void onNext(HealthCheckResponse value) {
                        if (first) {
                            first = false;
                            answered.incrementAndGet();
                        }
                    }

                    @Override
                    public void onError(Throwable t) {
                    }

                    @Override
                    public void onCompleted() {
                    }
                });
            }
            await().atMost(20, SECONDS).until(() -> answered.get() >= cap);
            // Far longer than the streams above took to be answered: none past the cap gets in.
            await().during(Duration.ofMillis(500)).atMost(5, SECONDS).untilAsserted(() -> assertEquals(cap,
                    answered.get(), "watches answered on one connection of the health port"));
        } finally {
            channel.shutdownNow().awaitTermination(5, SECONDS);
            server.close();
        }
    }
}
