package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a leaf's files are {@code <name>-<leafName>.pem} and {@code .key}, the CA's {@code <name>-ca.pem}, so
 * two CAs in one directory could name one file: {@code authority(dir, "a").leaf("b-c")} wrote over
 * {@code authority(dir, "a-b").leaf("c")}, whose {@code Pem} then held a certificate the other CA signed (a TLS test
 * failed its handshake with no word of why), and {@code authority(dir, "a").leaf("b-ca")} wrote a leaf over CA
 * {@code a-b}'s certificate, which every client of that CA then trusted alone. Both are now refused, naming the file
 * and whose it is; the same leaf of the same CA again still overwrites its own files.
 */
class TwoCasWhoseFileNamesMeetAreRefusedTest {

    @TempDir
    Path dir;

    @Test
    void aLeafWhoseFilesAreAnotherCasLeafsIsRefused() throws Exception {
        TestCertificates ab = TestCertificates.authority(dir, "a-b");
        TestCertificates.Pem c = ab.leaf("c");
        TestCertificates a = TestCertificates.authority(dir, "a");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> a.leaf("b-c"));
        assertEquals("leafName 'b-c' of CA 'a' would write " + dir.resolve("a-b-c.pem")
                + ", which is leaf 'c' of CA 'a-b'", refused.getMessage());
        X509Certificate leaf = PemFiles.certificate(c.certificate());
        leaf.verify(PemFiles.certificate(ab.caCertificate()).getPublicKey()); // still a-b's own leaf
        ab.leaf("c"); // its own leaf again: fine
    }

    @Test
    void aLeafWhoseCertificateIsAnotherCasCertificateIsRefused() throws Exception {
        TestCertificates ab = TestCertificates.authority(dir, "a-b");
        TestCertificates a = TestCertificates.authority(dir, "a");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> a.leaf("b-ca"));
        assertEquals("leafName 'b-ca' of CA 'a' would write " + dir.resolve("a-b-ca.pem")
                + ", which is the certificate of CA 'a-b'", refused.getMessage());
        assertTrue(PemFiles.certificate(ab.caCertificate()).getBasicConstraints() >= 0,
                "CA a-b's file no longer holds a CA certificate");
    }
}
