package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a worker's output written after it returned is refused, but the check came before the write: a write
 * from a thread the worker left behind that had passed the check when the worker returned went on into the store
 * while the client was told {@code Completed}, and was taken, silently, after the client may have read the store and
 * found nothing. A write in flight as the worker returns now ends before the client is told.
 */
@Timeout(60)
class AWriteInFlightAsTheWorkerReturnsEndsBeforeCompletedTest {

    @Test
    void theClientIsNotToldCompletedWhileAWriteOfTheJobIsStillGoingOn() throws Exception {
        List<Long> written = new CopyOnWriteArrayList<>();
        CountDownLatch writeEntered = new CountDownLatch(1);
        CompletableFuture<Void> clientToldCompleted = new CompletableFuture<>();
        AtomicBoolean toldBeforeTheWriteEnded = new AtomicBoolean();
        CompletableFuture<Throwable> strayWrite = new CompletableFuture<>();
        JobOutputs outputs = (requestId, segment, output) -> {
            writeEntered.countDown();
            try {
                // The store is slow: the write ends when the client was told, or after a while if it never is.
                clientToldCompleted.get(5, TimeUnit.SECONDS);
            } catch (Exception notTold) {
                // not told while the write went on: as it should be
            }
            toldBeforeTheWriteEnded.set(clientToldCompleted.isDone());
            written.add(segment);
        };
        JobWorker.WithContext worker = context -> {
            Thread.ofPlatform().start(() -> {
                try {
                    context.writeOutput(new byte[] {1});
                    strayWrite.complete(null);
                } catch (Throwable e) {
                    strayWrite.complete(e);
                }
            });
            // returns while the write it handed off is in the store
            if (!writeEntered.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the write never began");
            }
        };
        try (Tier2Server server = Tier2Server.builder().host("127.0.0.1").worker(worker).outputs(outputs)
                .drainGrace(Duration.ZERO).build().start();
             GrpcTier2Client client = GrpcTier2Client.builder().target("127.0.0.1:" + server.port()).build()) {
            try (Tier2Call call = client.dial(new Job("r", new JobKey(7, 0), 1))) {
                call.await();
                clientToldCompleted.complete(null);
            }
            assertNull(strayWrite.get(30, TimeUnit.SECONDS), "the write in flight failed");
            assertFalse(toldBeforeTheWriteEnded.get(),
                    "the client was told Completed while the job's write was still going on");
            assertEquals(List.of(7L), written);
        }
    }
}
