package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.testing.net.TestCertificates;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: docs/guide/securing.md says {@link Tier2Security} refuses "a key that is not the certificate's" when the
 * files are given, not when the server starts. It took such a pair on both sides: {@code serverCredentials} built a
 * Netty context to check them, but that context applies the key only at each handshake, so nothing was compared;
 * {@code clientCredentials} did not even build one. A tier2 given another certificate's key started, said it was
 * listening and failed every handshake; a client given one failed every dial as UNREACHABLE "UNAVAILABLE io
 * exception", with no reason, so a request waited for a tier2 it could never reach.
 */
@Timeout(60)
class AKeyThatIsNotTheCertificatesIsRefusedWhenReadTest {

    @TempDir
    Path dir;

    @Test
    void aServersKeyThatIsNotItsCertificatesIsRefusedNamingBothFiles() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        TestCertificates.Pem a = ca.leaf("a");
        TestCertificates.Pem b = ca.leaf("b");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tier2Security.serverCredentials(a.certificate(), b.key(), null));
        assertTrue(e.getMessage().contains(a.certificate().toString()) && e.getMessage().contains(b.key().toString()),
                e.getMessage());
        assertTrue(e.getMessage().contains("not the key of"), e.getMessage());
    }

    @Test
    void aClientsKeyThatIsNotItsCertificatesIsRefusedNamingBothFiles() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        TestCertificates.Pem a = ca.leaf("a");
        TestCertificates.Pem b = ca.leaf("b");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tier2Security.clientCredentials(ca.caCertificate(), a.certificate(), b.key()));
        assertTrue(e.getMessage().contains(a.certificate().toString()) && e.getMessage().contains(b.key().toString()),
                e.getMessage());
        assertTrue(e.getMessage().contains("not the key of"), e.getMessage());
    }

    @Test
    void aCertificateWithItsOwnKeyIsStillTakenOnBothSides() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        TestCertificates.Pem a = ca.leaf("a");
        Tier2Security.serverCredentials(a.certificate(), a.key(), ca.caCertificate());
        Tier2Security.clientCredentials(ca.caCertificate(), a.certificate(), a.key());
    }
}
