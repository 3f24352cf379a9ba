package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a job that the tier2 admitted and ran came back as REFUSED when its status said "service currently
 * overloaded" (a worker's execution timeout quoting its upstream, say) or was RESOURCE_EXHAUSTED. REFUSED means
 * nothing ran and is never counted, so a unit whose job always timed out that way was retried without end, past
 * {@code maxExecutionTimeouts}. After {@code Admitted}, a status is never a refusal.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AJobThatRanIsNeverRefusedTest {

    @Test
    void anExecutionTimeoutWhoseMessageQuotesAnOverloadedUpstreamIsAnExecutionTimeout() throws Exception {
        Tier2Server server = Tier2Server.builder().drainGrace(Duration.ZERO).worker((job, work) -> {
            throw Tier2Exception.executionTimeout("gave up after 30 s: upstream said service currently overloaded");
        }).build().start();
        GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + server.port())).build();
        try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), 1))) {
            Tier2Exception e = assertThrows(Tier2Exception.class, call::await);
            assertEquals(1, server.jobsAdmitted());
            assertFalse(e.neverRan(), () -> "a job that ran came back as " + e.kind() + ": " + e.getMessage());
            assertEquals(Kind.EXECUTION_TIMEOUT, e.kind(), e.getMessage());
        } finally {
            client.close();
            server.close();
        }
    }
}
