package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code TestCertificates} took its names unchecked. A {@code null} name or leaf name made files
 * {@code null-ca.pem} / {@code fleet-null.pem} for a certificate named "null"; a name with a comma or a plus
 * ({@code "eu,west"}) threw BouncyCastle's "badly formatted directory string", naming neither argument nor value; a
 * name with a slash wrote under another directory, or failed with {@code NoSuchFileException}. A name is now any
 * text (escaped in the certificate) that is a plain file name, and a bad one is refused naming the argument.
 */
class ACertificateNameIsCheckedAndEscapedTest {

    @TempDir
    Path dir;

    @Test
    void aNameWithACommaOrAPlusIsHeldAsItIs() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "eu,west");
        TestCertificates.Pem leaf = ca.leaf("tier2+a");
        X509Certificate caCert = PemFiles.certificate(ca.caCertificate());
        X509Certificate leafCert = PemFiles.certificate(leaf.certificate());
        leafCert.verify(caCert.getPublicKey());
        assertEquals(new X500Principal("CN=eu\\,west test CA"), caCert.getSubjectX500Principal());
        assertEquals(caCert.getSubjectX500Principal(), leafCert.getIssuerX500Principal());
        assertEquals(new X500Principal("CN=tier2\\+a"), leafCert.getSubjectX500Principal());
        assertEquals(dir.resolve("eu,west-tier2+a.pem"), leaf.certificate());
    }

    @Test
    void aMissingNameIsRefusedByName() throws Exception {
        assertEquals("dir", assertThrows(NullPointerException.class,
                () -> TestCertificates.authority(null, "fleet")).getMessage());
        assertEquals("name", assertThrows(NullPointerException.class,
                () -> TestCertificates.authority(dir, null)).getMessage());
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        assertEquals("leafName", assertThrows(NullPointerException.class, () -> ca.leaf(null)).getMessage());
    }

    @Test
    void aNameThatIsNotAFileNameIsRefusedByName() throws Exception {
        assertEquals("name must be a file name, not blank and without / or \\, was 'eu/west'",
                assertThrows(IllegalArgumentException.class, () -> TestCertificates.authority(dir, "eu/west"))
                        .getMessage());
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        assertEquals("leafName must be a file name, not blank and without / or \\, was ' '",
                assertThrows(IllegalArgumentException.class, () -> ca.leaf(" ")).getMessage());
    }
}
