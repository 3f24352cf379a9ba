package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a bearer token supplier that gave no token (null, blank, or not printable ASCII) fails the dial FATAL
 * before anything is sent, but the message said "the tier2 turned the bearer token away: check bearerToken on the
 * client and the tier2's tokens", sending the user to the tier2s' token files for a fault of the tier1's supplier.
 * A tier2 that does turn a token away is still said so.
 */
@Timeout(30)
class ATokenSupplierThatGivesNoTokenIsNotBlamedOnTheTier2Test {

    @Test
    void aSupplierThatGivesNoTokenIsSaidToBeTheSuppliersFault() throws Exception {
        Tier2Server server = Tier2Server.builder().worker((job, work) -> { }).drainGrace(Duration.ZERO)
                .bearerTokens(List.of("s3cret")).build().start();
        try {
            for (String given : new String[] {null, " ", "caf\u00e9"}) {
                try (GrpcTier2Client client = GrpcTier2Client.builder().target("127.0.0.1:" + server.port())
                        .bearerToken(() -> given).build()) {
                    Tier2Exception e = assertThrows(Tier2Exception.class,
                            () -> client.dial(new Job("r", new JobKey(0, 0), 1)));
                    assertEquals(Kind.FATAL, e.kind(), e.getMessage());
                    assertFalse(e.getMessage().contains("tier2 turned"), e.getMessage());
                    assertTrue(e.getMessage().contains("bearerToken supplier"), e.getMessage());
                }
            }
            try (GrpcTier2Client client = GrpcTier2Client.builder().target("127.0.0.1:" + server.port())
                    .bearerToken(() -> "guess").build()) {
                Tier2Exception e = assertThrows(Tier2Exception.class,
                        () -> client.dial(new Job("r", new JobKey(0, 0), 1)));
                assertEquals(Kind.FATAL, e.kind(), e.getMessage());
                assertTrue(e.getMessage().contains("tier2 turned the bearer token away"), e.getMessage());
            }
        } finally {
            server.close();
        }
        assertEquals(0, server.jobsAdmitted());
    }
}
