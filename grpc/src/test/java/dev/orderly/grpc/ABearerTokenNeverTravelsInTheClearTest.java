package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import io.grpc.InsecureChannelCredentials;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regressions on the client's bearer token. Credentials that are plaintext after all
 * ({@code InsecureChannelCredentials}) passed the check that refuses a token off loopback in the clear, which looked
 * only for no credentials: the token crossed the network unencrypted. And a token supplier that threw (a vault out of
 * reach) failed the dial as RETRYABLE "UNKNOWN", counted against {@code maxFailures} as a job that ran, with no
 * reason in the message, although nothing was sent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ABearerTokenNeverTravelsInTheClearTest {

    @Test
    void insecureCredentialsAreNoWayForATokenOffLoopback() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> GrpcTier2Client.builder().target("dns:///tier2.example:9000")
                        .credentials(InsecureChannelCredentials.create())
                        .bearerToken(() -> "s3cret").build().close());
        assertEquals("a bearer token would cross the network in the clear to target dns:///tier2.example:9000:"
                + " give credentials(…) for TLS", e.getMessage());
    }

    @Test
    void aTokenSupplierThatThrowsSendsNothingAndSaysWhy() throws Exception {
        Tier2Server server = Tier2Server.builder().bearerTokens(List.of("t")).drainGrace(Duration.ZERO)
                .worker((job, work) -> { }).build().start();
        GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + server.port()))
                .bearerToken(() -> {
                    throw new IllegalStateException("vault unreachable");
                }).build();
        try {
            Tier2Exception e = assertThrows(Tier2Exception.class,
                    () -> client.dial(new Job("r", new JobKey(0, 0), 1)).close());
            assertEquals(0, server.jobsAdmitted() + server.callsRefused(), "nothing reached the tier2");
            assertEquals(Tier2Exception.Kind.UNREACHABLE, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains(
                    "the bearer token supplier threw java.lang.IllegalStateException: vault unreachable"),
                    e.getMessage());
        } finally {
            client.close();
            server.close();
        }
    }
}
