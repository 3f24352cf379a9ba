package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.testing.LocalTier2;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code Tier2Server.Builder.maxCallsPerConnection(1)} was taken, and its javadoc said further streams
 * are "refused by HTTP/2". They are not refused: they wait in the client's HTTP/2 layer. A health-checking client
 * (the default) keeps its health watch open on the connection, which took the one call, so every dial waited out
 * the client's {@code admissionTimeout} and was UNREACHABLE "an instance that does not answer" on an idle tier2, and
 * the request never ran a job. The builder now asks for at least 2, saying why, and its javadoc says what happens to
 * the calls past the limit.
 */
@Timeout(60)
class OneCallPerConnectionIsRefusedAsItWouldRunNoJobTest {

    @Test
    void oneCallPerConnectionIsRefusedNamingTheHealthWatch() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tier2Server.builder().maxCallsPerConnection(1));
        assertTrue(e.getMessage().startsWith("maxCallsPerConnection must be >= 2") && e.getMessage().contains("was 1")
                && e.getMessage().contains("health"), e.getMessage());
    }

    @Test
    void twoCallsPerConnectionRunAJobOnAnIdleTier2() throws Exception {
        try (LocalTier2 tier2 = LocalTier2.start(Tier2Server.builder().maxConcurrentJobs(1).maxCallsPerConnection(2)
                .worker((job, work) -> {
                }))) {
            String ended;
            try (Tier2Call call = tier2.client().dial(new Job("r", new JobKey(0, 0), 1))) {
                call.await();
                ended = "completed";
            } catch (Tier2Exception e) {
                ended = e.kind() + ": " + e.getMessage();
            }
            assertEquals("completed", ended);
        }
    }
}
