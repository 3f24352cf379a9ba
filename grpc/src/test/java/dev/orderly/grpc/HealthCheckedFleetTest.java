package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Over loopback Netty: a round_robin client with health checking sends nothing to an instance that is NOT_SERVING. */
@Timeout(60)
class HealthCheckedFleetTest {

    @Test
    void fullInstanceIsSkippedByTheHealthCheckingClient() throws Exception {
        CountDownLatch finish = new CountDownLatch(1);
        JobWorker blocking = (job, work) -> finish.await();
        try (Tier2Server full = Tier2Server.builder().maxConcurrentJobs(1).worker(blocking)
                     .loadStatusDelay(java.time.Duration.ZERO).build().start();
             Tier2Server roomy = Tier2Server.builder().maxConcurrentJobs(64).worker((job, work) -> { }).build()
                     .start();
             GrpcTier2Client direct = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + full.port()))
                     .build();
             GrpcTier2Client fleet = GrpcTier2Client.builder()
                     .addresses(List.of("127.0.0.1:" + full.port(), "127.0.0.1:" + roomy.port())).build()) {
            Tier2Call holder = direct.dial(new Job("holder", new JobKey(0, 0), 1));
            for (int i = 0; i < 40; i++) {
                try (Tier2Call call = fleet.dial(new Job("r", new JobKey(i, 0), 1))) {
                    call.await();
                }
            }
            assertEquals(0, full.callsRefused(), "calls reached the NOT_SERVING instance");
            assertEquals(40, roomy.jobsAdmitted());
            finish.countDown();
            holder.await();
            holder.close();
        } finally {
            finish.countDown();
        }
    }
}
