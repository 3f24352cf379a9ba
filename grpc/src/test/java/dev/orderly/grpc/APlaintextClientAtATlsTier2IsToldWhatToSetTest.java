package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import dev.orderly.testing.net.TestCertificates;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a client without TLS (on loopback it needs neither credentials nor {@code plaintext()}, so a sidecar
 * tier2 given TLS is the likely case) dialing a tier2 that requires TLS was told only "UNAVAILABLE Network closed for
 * unknown reason", dial after dial: the one message a request that makes no progress logs gave neither the cause nor
 * the setting, where securing.md says a misconfigured fleet says why. The dial stays UNREACHABLE (nothing ran), and
 * its message now says the client speaks plaintext and what to give.
 */
@Timeout(60)
class APlaintextClientAtATlsTier2IsToldWhatToSetTest {

    @TempDir
    Path dir;

    private static Tier2Exception dialFails(GrpcTier2Client client) {
        try {
            return assertThrows(Tier2Exception.class, () -> {
                try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), 1))) {
                    call.await();
                }
            });
        } finally {
            client.close();
        }
    }

    @Test
    void aPlaintextClientIsToldToGiveCredentials() throws Exception {
        TestCertificates.Pem leaf = TestCertificates.authority(dir, "fleet").leaf("tier2");
        try (Tier2Server server = Tier2Server.builder().host("127.0.0.1").worker((job, work) -> { })
                .drainGrace(Duration.ZERO)
                .credentials(Tier2Security.serverCredentials(leaf.certificate(), leaf.key(), null)).build().start()) {
            for (GrpcTier2Client.Builder b : new GrpcTier2Client.Builder[] {
                GrpcTier2Client.builder().target("127.0.0.1:" + server.port()),
                GrpcTier2Client.builder().target("127.0.0.1:" + server.port()).plaintext()}) {
                Tier2Exception e = dialFails(b.admissionTimeout(Duration.ofSeconds(20)).build());
                assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
                assertTrue(e.getMessage().contains("127.0.0.1:" + server.port()), e.getMessage());
                assertTrue(e.getMessage().contains("plaintext") && e.getMessage().contains("credentials("),
                        "says neither that the client speaks plaintext nor what to give: " + e.getMessage());
            }
            assertEquals(0, server.jobsAdmitted());
        }
    }

    @Test
    void aTlsClientThatIsRefusedIsNotToldItSpeaksPlaintext() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        TestCertificates.Pem leaf = ca.leaf("tier2");
        try (Tier2Server server = Tier2Server.builder().host("127.0.0.1").worker((job, work) -> { })
                .drainGrace(Duration.ZERO)
                .credentials(Tier2Security.serverCredentials(leaf.certificate(), leaf.key(), ca.caCertificate()))
                .build().start()) {
            Tier2Exception e = dialFails(GrpcTier2Client.builder().target("127.0.0.1:" + server.port())
                    .admissionTimeout(Duration.ofSeconds(20))
                    .credentials(Tier2Security.clientCredentials(ca.caCertificate(), null, null)).build());
            assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
            assertFalse(e.getMessage().contains("speaks plaintext"), e.getMessage());
        }
    }
}
