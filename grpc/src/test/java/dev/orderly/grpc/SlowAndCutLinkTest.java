package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.net.TcpProxy;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A tier2 behind a {@link TcpProxy}: a slow link is only slow, a cut one costs the jobs it carried and no more. */
@Timeout(90)
class SlowAndCutLinkTest {

    private static final Engine ENGINE = Orderly.engine(EngineConfig.builder()
            .refusedDelay(Duration.ofMillis(20)).failureDelay(Duration.ofMillis(20)).build());

    @Test
    void aSlowLinkDeliversEverythingWithNoTimeoutOrFailure() throws Exception {
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        try (Tier2Server server = Tier2Server.builder().maxConcurrentJobs(4).drainGrace(Duration.ZERO)
                     .worker((job, work) -> outputs.write(job.key().segment(), Transport.output(job.key().segment())))
                     .build().start();
             TcpProxy link = TcpProxy.start(new InetSocketAddress("127.0.0.1", server.port()))
                     .delay(Duration.ofMillis(150));
             GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of(link.hostPort()))
                     .admissionTimeout(Duration.ofSeconds(5)).build()) {
            long start = System.nanoTime();
            try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), 1))) {
                call.await();
            }
            // connection set-up plus a call: several 300 ms round trips, never fewer than one
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(300));

            AtomicLong next = new AtomicLong();
            RequestResult result = ENGINE.run(Request.of(new RequestPlan(0, 12, 1, 4), client, outputs,
                    (segment, output) -> {
                        assertEquals(next.getAndIncrement(), segment);
                        assertArrayEquals(Transport.output(segment), output);
                    }));
            assertEquals(12, result.segmentsDelivered());
            assertEquals(0, result.failures());
            assertEquals(0, result.executionTimeouts());
        }
    }

    @Test
    void aCutLinkFailsTheAdmittedJobAsRetryableAndTheNextDialReconnects() throws Exception {
        CountDownLatch finish = new CountDownLatch(1);
        try (Tier2Server server = Tier2Server.builder().maxConcurrentJobs(4).drainGrace(Duration.ZERO)
                     .worker((job, work) -> {
                         if (job.key().segment() == 0) {
                             finish.await();
                         }
                     }).build().start();
             TcpProxy link = TcpProxy.start(new InetSocketAddress("127.0.0.1", server.port()));
             GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of(link.hostPort())).build()) {
            try {
                Tier2Call running = client.dial(new Job("r", new JobKey(0, 0), 1));
                link.cut();
                Tier2Exception e = assertThrows(Tier2Exception.class, running::await);
                assertEquals(Kind.RETRYABLE, e.kind(), e.getMessage());
                running.close();
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
                    try (Tier2Call call = client.dial(new Job("r", new JobKey(1, 0), 1))) {
                        call.await();
                        return true;
                    } catch (Tier2Exception unreachableWhileReconnecting) {
                        return false;
                    }
                });
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> server.jobsHeld() == 0);
            } finally {
                finish.countDown();
            }
        }
    }
}
