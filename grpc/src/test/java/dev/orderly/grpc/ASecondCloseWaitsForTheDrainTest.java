package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Tier2Server#close()} is idempotent and "waits for all of it": a second {@code close()}, made while the first
 * drains (a {@code main}'s {@code finally} while the SIGTERM hook drains, say), returns only once the server has
 * drained and stopped, so that what the caller closes next (the outputs, a client the worker uses) is not closed under
 * jobs still running.
 *
 * <p>The bug: a second {@code close()} saw that the server was closed already and returned at once, while the first
 * still let the running jobs finish.
 */
@Timeout(60)
class ASecondCloseWaitsForTheDrainTest {

    @Test
    void aCloseWhileAnotherDrainsReturnsOnlyOnceTheServerHasStopped() throws Exception {
        CountDownLatch finish = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        String name = InProcessServerBuilder.generateName();
        Tier2Server server = Tier2Server.builder().maxConcurrentJobs(1).drainGrace(Duration.ofSeconds(30))
                .worker((job, work) -> {
                    started.countDown();
                    finish.await();
                })
                .serverBuilder(InProcessServerBuilder.forName(name)).build().start();
        ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
        GrpcTier2Client client = GrpcTier2Client.builder().channel(channel).build();
        Thread first = null;
        Thread second = null;
        try {
            Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), 1));
            assertTrue(started.await(10, SECONDS), "the job never started");
            HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
            first = Thread.ofVirtual().start(server::close);
            await().atMost(10, SECONDS).until(() -> health.check(HealthCheckRequest.getDefaultInstance())
                    .getStatus() == ServingStatus.NOT_SERVING); // the first close() drains now

            AtomicBoolean stoppedWhenItReturned = new AtomicBoolean();
            CountDownLatch secondReturned = new CountDownLatch(1);
            second = Thread.ofVirtual().start(() -> {
                server.close();
                stoppedWhenItReturned.set(server.isTerminated());
                secondReturned.countDown();
            });
            boolean returnedEarly = secondReturned.await(1, SECONDS);
            assertFalse(returnedEarly && !stoppedWhenItReturned.get(),
                    "a second close() returned while the first still drained a running job");

            finish.countDown();
            call.await();
            call.close();
            assertTrue(secondReturned.await(20, SECONDS), "the second close() did not return once drained");
            assertTrue(stoppedWhenItReturned.get(), "the second close() returned before the server had stopped");
        } finally {
            finish.countDown();
            for (Thread t : new Thread[] {first, second}) {
                if (t != null) {
                    t.join(Duration.ofSeconds(20));
                }
            }
            server.close();
            channel.shutdownNow().awaitTermination(5, SECONDS);
        }
    }
}
