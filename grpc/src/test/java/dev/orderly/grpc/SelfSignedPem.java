package dev.orderly.grpc;

import java.io.Writer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A self-signed certificate for localhost of a key pair the test made, in PEM: for keys of a form or pair chosen. */
final class SelfSignedPem {

    private SelfSignedPem() {
    }

    /** Writes the certificate of {@code keys}, signed with {@code signature} (a JCA name), to {@code file}. */
    static Path write(KeyPair keys, String signature, Path file) throws Exception {
        Instant now = Instant.now();
        X500Name subject = new X500Name("CN=localhost");
        var cert = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(subject,
                BigInteger.valueOf(System.nanoTime() & Long.MAX_VALUE), Date.from(now.minus(Duration.ofHours(1))),
                Date.from(now.plus(Duration.ofDays(1))), subject, keys.getPublic())
                .build(new JcaContentSignerBuilder(signature).build(keys.getPrivate())));
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII); JcaPEMWriter p = new JcaPEMWriter(w)) {
            p.writeObject(cert);
        }
        return file;
    }
}
