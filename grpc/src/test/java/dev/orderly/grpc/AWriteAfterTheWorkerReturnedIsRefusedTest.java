package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a {@link JobContext} is "valid until the worker returns", but a worker that handed its write to a thread
 * of its own and returned had it taken afterwards, silently: the client had already been told {@code Completed} (and
 * may have found the output missing and run the segment again), and the late write landed over whatever was there,
 * with nothing in the tier2's log. Such a write is now refused with an {@link IllegalStateException} naming the job,
 * and nothing is written.
 */
@Timeout(60)
class AWriteAfterTheWorkerReturnedIsRefusedTest {

    @Test
    void aWriteFromAThreadOfTheWorkerAfterItReturnedIsRefused() throws Exception {
        List<Long> written = new CopyOnWriteArrayList<>();
        CountDownLatch returned = new CountDownLatch(1);
        CompletableFuture<Throwable> late = new CompletableFuture<>();
        JobWorker.WithContext worker = context -> Thread.ofPlatform().start(() -> {
            try {
                if (!returned.await(30, TimeUnit.SECONDS)) {
                    late.complete(new AssertionError("the job never completed"));
                    return;
                }
                context.writeOutput(new byte[] {1});
                late.complete(null);
            } catch (Throwable e) {
                late.complete(e);
            }
        });
        try (Tier2Server server = Tier2Server.builder().host("127.0.0.1").worker(worker)
                .outputs((requestId, segment, output) -> written.add(segment)).drainGrace(Duration.ZERO).build()
                .start();
             GrpcTier2Client client = GrpcTier2Client.builder().target("127.0.0.1:" + server.port()).build()) {
            try (Tier2Call call = client.dial(new Job("r", new JobKey(7, 0), 1))) {
                call.await(); // Completed: the worker has returned
            }
            returned.countDown();
            Throwable e = late.get(30, TimeUnit.SECONDS);
            assertTrue(e instanceof IllegalStateException, "the late write was taken (written: " + written + "), "
                    + "threw " + e);
            assertTrue(e.getMessage().contains("segment 7"), e.getMessage());
            assertEquals(List.of(), written);
        }
    }
}
