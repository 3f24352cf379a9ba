package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SignatureException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestCertificatesTest {

    @TempDir
    Path dir;

    private static X509Certificate read(Path pem) throws Exception {
        try (InputStream in = Files.newInputStream(pem)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    @Test
    void aLeafIsSignedByItsCaAndNamesLoopback() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        TestCertificates.Pem leaf = ca.leaf("tier2");
        X509Certificate caCert = read(ca.caCertificate());
        X509Certificate leafCert = read(leaf.certificate());
        leafCert.verify(caCert.getPublicKey());
        leafCert.checkValidity();
        assertTrue(caCert.getBasicConstraints() >= 0, "the CA certificate is not a CA");
        assertEquals(-1, leafCert.getBasicConstraints());
        List<String> names = leafCert.getSubjectAlternativeNames().stream().map(n -> n.get(1).toString()).toList();
        assertEquals(List.of("localhost", "127.0.0.1"), names);
        assertTrue(Files.readString(leaf.key()).startsWith("-----BEGIN PRIVATE KEY-----"), "not PKCS#8 PEM");
    }

    @Test
    void anotherCaDidNotSignIt() throws Exception {
        TestCertificates.Pem leaf = TestCertificates.authority(dir, "one").leaf("tier2");
        X509Certificate stranger = read(TestCertificates.authority(dir, "two").caCertificate());
        assertThrows(SignatureException.class, () -> read(leaf.certificate()).verify(stranger.getPublicKey()));
    }
}
