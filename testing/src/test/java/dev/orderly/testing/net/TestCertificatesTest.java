package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SignatureException;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestCertificatesTest {

    @TempDir
    Path dir;

    @Test
    void aLeafIsSignedByItsCaAndNamesLoopback() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        TestCertificates.Pem leaf = ca.leaf("tier2");
        X509Certificate caCert = PemFiles.certificate(ca.caCertificate());
        X509Certificate leafCert = PemFiles.certificate(leaf.certificate());
        leafCert.verify(caCert.getPublicKey());
        leafCert.checkValidity();
        assertTrue(caCert.getBasicConstraints() >= 0, "the CA certificate is not a CA");
        assertEquals(-1, leafCert.getBasicConstraints());
        List<String> names = leafCert.getSubjectAlternativeNames().stream().map(n -> n.get(1).toString()).toList();
        assertEquals(List.of("localhost", "127.0.0.1", "0:0:0:0:0:0:0:1"), names);
        assertTrue(Files.readString(leaf.key()).startsWith("-----BEGIN PRIVATE KEY-----"), "not PKCS#8 PEM");
    }

    @Test
    void anotherCaDidNotSignIt() throws Exception {
        TestCertificates.Pem leaf = TestCertificates.authority(dir, "one").leaf("tier2");
        X509Certificate stranger = PemFiles.certificate(TestCertificates.authority(dir, "two").caCertificate());
        X509Certificate leafCert = PemFiles.certificate(leaf.certificate());
        assertThrows(SignatureException.class, () -> leafCert.verify(stranger.getPublicKey()));
    }
}
