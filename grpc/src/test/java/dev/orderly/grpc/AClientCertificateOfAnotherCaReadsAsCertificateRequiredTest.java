package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Pins what docs/guide/securing.md says of a failed mTLS handshake: a client whose certificate another CA signed is
 * told {@code TLSV1_ALERT_CERTIFICATE_REQUIRED}, as one with no certificate is (the tier2 names the CAs it accepts, and
 * the client's TLS stack then sends no certificate at all). The guide gave that alert only for "no client
 * certificate", so a user who had configured one read it as "my certificate was never loaded".
 */
@Timeout(60)
class AClientCertificateOfAnotherCaReadsAsCertificateRequiredTest {

    @TempDir
    Path dir;

    @Test
    void aClientCertificateSignedByAnotherCaGetsCertificateRequired() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        TestCertificates.Pem tier2 = ca.leaf("tier2");
        TestCertificates.Pem stranger = TestCertificates.authority(dir, "stranger").leaf("tier1");
        try (Tier2Server server = Tier2Server.builder().host("127.0.0.1").worker((job, work) -> { })
                .drainGrace(Duration.ZERO)
                .credentials(Tier2Security.serverCredentials(tier2.certificate(), tier2.key(), ca.caCertificate()))
                .build().start();
                GrpcTier2Client client = GrpcTier2Client.builder().target("127.0.0.1:" + server.port())
                        .admissionTimeout(Duration.ofSeconds(20))
                        .credentials(Tier2Security.clientCredentials(ca.caCertificate(), stranger.certificate(),
                                stranger.key()))
                        .build()) {
            Tier2Exception e = assertThrows(Tier2Exception.class, () -> {
                try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), 1))) {
                    call.await();
                }
            });
            assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("TLSV1_ALERT_CERTIFICATE_REQUIRED"), e.getMessage());
            assertEquals(0, server.jobsAdmitted());
        }
    }
}
