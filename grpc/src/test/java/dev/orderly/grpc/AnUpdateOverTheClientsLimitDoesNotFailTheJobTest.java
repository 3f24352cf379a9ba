package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.testing.LocalTier2;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a progress {@code Update} larger than the client's {@code maxMessageSize} failed the request. Orderly
 * does not read updates (the tier2 guide says so, and the client drops them), yet the client's transport refused the
 * too-large message with {@code RESOURCE_EXHAUSTED} "exceeds maximum size", which the client reads as work over its
 * limit: FATAL, for a job whose worker went on to complete. The tier2 now does not send an update over its own
 * {@code maxMessageSize} (which the clients' must equal), saying so in a WARN line, and the job ends as its worker did.
 */
@Timeout(60)
class AnUpdateOverTheClientsLimitDoesNotFailTheJobTest {

    @Test
    void aJobThatSentATooLargeUpdateAndCompletedIsCompleted() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        JobWorker.WithContext worker = context -> {
            context.sendUpdate(new byte[5 * 1024 * 1024]); // over the default 4 MiB on both sides
            context.sendUpdate("still here".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            ran.incrementAndGet();
        };
        try (LocalTier2 tier2 = LocalTier2.start(Tier2Server.builder().worker(worker))) {
            String ended;
            try (Tier2Call call = tier2.client().dial(new Job("r", new JobKey(0, 0), 1))) {
                try {
                    call.await();
                    ended = "completed";
                } catch (Tier2Exception e) {
                    ended = e.kind() + ": " + e.getMessage();
                }
            }
            assertEquals("completed", ended);
            assertEquals(1, ran.get());
        }
    }
}
