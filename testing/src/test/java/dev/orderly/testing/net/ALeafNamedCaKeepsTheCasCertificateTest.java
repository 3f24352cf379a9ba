package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a leaf's certificate is {@code <name>-<leafName>.pem}, the CA's {@code <name>-ca.pem}, so
 * {@code leaf("ca")} wrote its certificate over the CA's: a client that trusted {@code caCertificate()} then trusted
 * the leaf alone, and every other leaf of the CA failed its handshake with no word of why. A leaf named {@code ca}
 * (in any case, for file systems that ignore it) is now refused, naming the file it would overwrite.
 */
class ALeafNamedCaKeepsTheCasCertificateTest {

    @TempDir
    Path dir;

    @Test
    void aLeafNamedCaIsRefusedAndTheCaFileStaysTheCas() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ca.leaf("ca"));
        assertEquals("leafName must not be 'ca': fleet-ca.pem is the CA's certificate", refused.getMessage());
        assertEquals("leafName must not be 'CA': fleet-ca.pem is the CA's certificate",
                assertThrows(IllegalArgumentException.class, () -> ca.leaf("CA")).getMessage());
        assertTrue(PemFiles.certificate(ca.caCertificate()).getBasicConstraints() >= 0,
                "the CA's file no longer holds a CA certificate");
    }
}
