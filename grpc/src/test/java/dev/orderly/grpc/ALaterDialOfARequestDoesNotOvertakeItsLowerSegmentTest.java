package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A dial's rank is its segment minus the segment its client waited for <em>when it dialed</em>. A request's dial for
 * segment 10, made while its client waited for segment 5 (rank 5), may still wait in a room when the client has read
 * on to segment 9 and the request dials segment 12 (rank 3). The room handed the freed slot to segment 12, the lower
 * rank, although the client reads in order and needs segment 10 first: "within the tenant, to its lowest rank (the
 * one its client needs soonest)" did not hold once the ranks were taken at different moments.
 */
@Timeout(60)
class ALaterDialOfARequestDoesNotOvertakeItsLowerSegmentTest {

    @Test
    void theFreedSlotGoesToTheLowerSegmentOfTheRequest() throws Exception {
        List<String> started = new CopyOnWriteArrayList<>();
        CountDownLatch finish = new CountDownLatch(1);
        Tier2Server s = Tier2Server.builder().maxConcurrentJobs(1).waitingRoom(8, Duration.ofSeconds(30))
                .drainGrace(Duration.ZERO)
                .worker((job, work) -> {
                    started.add(job.requestId() + job.key().segment());
                    if (job.requestId().equals("h")) {
                        finish.await(30, TimeUnit.SECONDS);
                    }
                }).build().start();
        GrpcTier2Client c = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + s.port()))
                .healthChecking(false).admissionWait(Duration.ofSeconds(30)).build();
        List<Thread> dials = new ArrayList<>();
        try {
            Tier2Call holder = c.dial(new Job("h", new JobKey(0, 0), 1, 0));
            await().atMost(10, SECONDS).until(() -> started.contains("h0"));
            // segment 10 dialed while the client waited for segment 5; segment 12 once it waited for segment 9
            dials.add(waitingDial(c, new Job("a", new JobKey(10, 0), 1, 5)));
            await().atMost(10, SECONDS).until(() -> s.callsWaiting() == 1);
            dials.add(waitingDial(c, new Job("a", new JobKey(12, 0), 1, 9)));
            await().atMost(10, SECONDS).until(() -> s.callsWaiting() == 2);
            finish.countDown();
            holder.await();
            holder.close();
            await().atMost(10, SECONDS).until(() -> started.size() == 3);
            assertEquals(List.of("h0", "a10", "a12"), started,
                    "the client reads segment 10 before segment 12");
        } finally {
            finish.countDown();
            for (Thread t : dials) {
                t.join(Duration.ofSeconds(10));
            }
            c.close();
            s.close();
        }
    }

    /** A dial on its own thread that waits in the room, then runs its job to its end. */
    private static Thread waitingDial(GrpcTier2Client c, Job job) {
        return Thread.ofVirtual().start(() -> {
            try (Tier2Call call = c.dial(job)) {
                call.await();
            } catch (Exception e) {
                // the order of the starts is what the test reads
            }
        });
    }
}
