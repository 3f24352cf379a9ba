package dev.orderly.testing.net;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

/** Reads back what {@link TestCertificates} wrote, for the tests that check it. */
final class PemFiles {

    private PemFiles() {
    }

    /** The certificate in the PEM file {@code pem}. */
    static X509Certificate certificate(Path pem) throws Exception {
        try (InputStream in = Files.newInputStream(pem)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }
}
