package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a write after the worker returned is refused ("the client was told how the job ended: a write now lands
 * after it may have read, or re-run it"), but a worker that ignored its interrupt past the execution limit, whose
 * client had been told {@code DEADLINE_EXCEEDED} at the limit (and redials the segment, maybe elsewhere), still had its
 * output taken and written when it got round to it. Its client was told just the same, so the write is refused the
 * same way.
 */
@Timeout(60)
class AWriteAfterTheExecutionLimitCutTheJobIsRefusedTest {

    @Test
    void aWriteByAWorkerPastItsExecutionLimitIsRefused() throws Exception {
        List<Long> written = new CopyOnWriteArrayList<>();
        CountDownLatch told = new CountDownLatch(1);
        CompletableFuture<Throwable> late = new CompletableFuture<>();
        JobWorker.WithContext worker = context -> {
            // a worker that ignores its interrupt: it goes on until the client has been told the job timed out
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (told.getCount() > 0 && System.nanoTime() < deadline) {
                try {
                    told.await(1, TimeUnit.SECONDS);
                } catch (InterruptedException ignored) {
                    // ignored on purpose
                }
            }
            try {
                context.writeOutput(new byte[] {1});
                late.complete(null);
            } catch (Throwable e) {
                late.complete(e);
            }
        };
        try (Tier2Server server = Tier2Server.builder().host("127.0.0.1").worker(worker)
                .outputs((requestId, segment, output) -> written.add(segment))
                .executionTimeout(Duration.ofMillis(200)).drainGrace(Duration.ZERO).build().start();
             GrpcTier2Client client = GrpcTier2Client.builder().target("127.0.0.1:" + server.port()).build()) {
            try (Tier2Call call = client.dial(new Job("r", new JobKey(7, 0), 1))) {
                Tier2Exception e = assertThrows(Tier2Exception.class, call::await);
                assertEquals(Tier2Exception.Kind.EXECUTION_TIMEOUT, e.kind(), e.getMessage());
            }
            told.countDown();
            Throwable e = late.get(30, TimeUnit.SECONDS);
            assertTrue(e instanceof IllegalStateException, "the write after the client was told the job timed out"
                    + " was taken (written: " + written + "), threw " + e);
            assertTrue(e.getMessage().contains("segment 7"), e.getMessage());
            assertEquals(List.of(), written);
        }
    }
}
