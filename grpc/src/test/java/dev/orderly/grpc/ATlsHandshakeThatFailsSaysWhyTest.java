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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TLS handshake that fails is UNREACHABLE (nothing ran) and the request keeps waiting for a tier2 it can reach, so
 * the message of that UNREACHABLE, which the engine logs for a request that makes no progress, is all a user has to
 * find the misconfiguration: it must say why the handshake failed.
 *
 * <p>The bug: the message was the status's description only, "UNAVAILABLE io exception" (and gRPC's channel pipeline
 * on a second line) or "UNAVAILABLE ssl exception": why (an untrusted CA, a certificate without the host's name, no
 * client certificate for an mTLS tier2) was in the status's cause, which was dropped.
 */
@Timeout(60)
class ATlsHandshakeThatFailsSaysWhyTest {

    @TempDir
    Path dir;

    private TestCertificates ca;
    private TestCertificates.Pem leaf;
    private Tier2Server server;
    private GrpcTier2Client client;

    @BeforeEach
    void certificates() throws Exception {
        ca = TestCertificates.authority(dir, "fleet");
        leaf = ca.leaf("tier2"); // for localhost and 127.0.0.1
    }

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private Tier2Server serve(String host, Path clientCa) throws Exception {
        server = Tier2Server.builder().host(host).worker((job, work) -> { }).drainGrace(Duration.ZERO)
                .credentials(Tier2Security.serverCredentials(leaf.certificate(), leaf.key(), clientCa))
                .build().start();
        return server;
    }

    private Tier2Exception dialFails(String target, Path trustedCa) throws Exception {
        client = GrpcTier2Client.builder().target(target).admissionTimeout(Duration.ofSeconds(20))
                .credentials(Tier2Security.clientCredentials(trustedCa, null, null)).build();
        Tier2Exception e = assertThrows(Tier2Exception.class, () -> {
            try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), 1))) {
                call.await();
            }
        });
        assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
        assertEquals(0, server.jobsAdmitted());
        return e;
    }

    @Test
    void aClientThatDoesNotTrustTheTier2sCaIsToldSo() throws Exception {
        serve("127.0.0.1", null);
        Path stranger = TestCertificates.authority(dir, "stranger").caCertificate();
        Tier2Exception e = dialFails("127.0.0.1:" + server.port(), stranger);
        assertTrue(e.getMessage().contains("unable to find valid certification path"), e.getMessage());
    }

    @Test
    void aTier2WhoseCertificateDoesNotNameTheTargetIsToldSo() throws Exception {
        serve("127.0.0.2", null); // on Linux all of 127/8 is loopback; the certificate names 127.0.0.1 only
        Tier2Exception e = dialFails("127.0.0.2:" + server.port(), ca.caCertificate());
        assertTrue(e.getMessage().contains("No subject alternative names matching IP address 127.0.0.2"),
                e.getMessage());
    }

    @Test
    void aClientWithoutACertificateForAnMtlsTier2IsToldSo() throws Exception {
        serve("127.0.0.1", ca.caCertificate());
        Tier2Exception e = dialFails("127.0.0.1:" + server.port(), ca.caCertificate());
        assertTrue(e.getMessage().contains("CERTIFICATE_REQUIRED"), e.getMessage());
    }
}
