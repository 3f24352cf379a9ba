package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.testing.net.TestCertificates;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: with BouncyCastle on the class path (as in this module's tests), the transport reads a PKCS#1
 * ({@code BEGIN RSA PRIVATE KEY}) or SEC1 ({@code BEGIN EC PRIVATE KEY}) key too, but {@link Tier2Security} checked
 * only a PKCS#8 key against the certificate: one of another pair in those forms was taken on both sides, and a tier2
 * given it started and failed every handshake ({@code TLSV1_ALERT_INTERNAL_ERROR}, naming no file), while the same key
 * as PKCS#8 was refused at once naming both files.
 */
@Timeout(60)
class AKeyOfAnotherPairInPkcs1OrSec1FormIsRefusedTest {

    @TempDir
    Path dir;

    @Test
    void aSec1KeyOfAnotherPairIsRefusedOnBothSidesNamingBothFiles() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        TestCertificates.Pem a = ca.leaf("a");
        Path otherSec1 = traditional(pair("EC", 256).getPrivate(), "b-sec1.key");
        assertTrue(Files.readString(otherSec1).startsWith("-----BEGIN EC PRIVATE KEY-----"));
        refusedOnBothSides(ca.caCertificate(), a.certificate(), otherSec1);
    }

    @Test
    void aPkcs1KeyOfAnotherPairIsRefusedOnBothSidesNamingBothFiles() throws Exception {
        Path certificate = selfSigned(pair("RSA", 2048), "a-rsa.pem");
        Path otherPkcs1 = traditional(pair("RSA", 2048).getPrivate(), "b-rsa.key");
        assertTrue(Files.readString(otherPkcs1).startsWith("-----BEGIN RSA PRIVATE KEY-----"));
        refusedOnBothSides(certificate, certificate, otherPkcs1);
    }

    @Test
    void aPkcs1OrSec1KeyOfItsOwnCertificateIsStillTaken() throws Exception {
        KeyPair ec = pair("EC", 256);
        Path ecCertificate = selfSigned(ec, "own-ec.pem");
        Path ownSec1 = traditional(ec.getPrivate(), "own-ec.key");
        assertTrue(Files.readString(ownSec1).startsWith("-----BEGIN EC PRIVATE KEY-----"));
        assertNotNull(Tier2Security.serverCredentials(ecCertificate, ownSec1, ecCertificate));
        assertNotNull(Tier2Security.clientCredentials(ecCertificate, ecCertificate, ownSec1));
        KeyPair rsa = pair("RSA", 2048);
        Path certificate = selfSigned(rsa, "own-rsa.pem");
        Path ownPkcs1 = traditional(rsa.getPrivate(), "own-rsa.key");
        assertNotNull(Tier2Security.serverCredentials(certificate, ownPkcs1, null));
        assertNotNull(Tier2Security.clientCredentials(certificate, certificate, ownPkcs1));
    }

    private static void refusedOnBothSides(Path ca, Path certificate, Path key) {
        IllegalArgumentException server = assertThrows(IllegalArgumentException.class,
                () -> Tier2Security.serverCredentials(certificate, key, null),
                "a server given a key of another pair in PKCS#1/SEC1 form");
        assertNamesBothAndSaysWhy(server, certificate, key);
        IllegalArgumentException client = assertThrows(IllegalArgumentException.class,
                () -> Tier2Security.clientCredentials(ca, certificate, key),
                "a client given a key of another pair in PKCS#1/SEC1 form");
        assertNamesBothAndSaysWhy(client, certificate, key);
    }

    private static void assertNamesBothAndSaysWhy(IllegalArgumentException e, Path certificate, Path key) {
        String said = e.getMessage();
        assertTrue(said.contains(certificate.toString()) && said.contains(key.toString()), said);
        assertTrue(said.contains("not the key of"), said);
    }

    /**
     * A key pair made by BouncyCastle: its EC key's SEC1 form names the curve and holds the public key, as
     * {@code openssl ec} writes it (the JDK's, written the same way, holds neither, and no reader takes it).
     */
    private static KeyPair pair(String algorithm, int bits) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance(algorithm, new BouncyCastleProvider());
        g.initialize(bits);
        return g.generateKeyPair();
    }

    /** {@code key} written in its traditional form: PKCS#1 for RSA, SEC1 for EC (what JcaPEMWriter writes of a key). */
    private Path traditional(PrivateKey key, String name) throws Exception {
        Path file = dir.resolve(name);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII); JcaPEMWriter p = new JcaPEMWriter(w)) {
            p.writeObject(key);
        }
        return file;
    }

    /** A self-signed certificate for localhost of {@code keys}, PEM. */
    private Path selfSigned(KeyPair keys, String name) throws Exception {
        String signature = keys.getPrivate().getAlgorithm().startsWith("EC") ? "SHA256withECDSA" : "SHA256withRSA";
        return SelfSignedPem.write(keys, signature, dir.resolve(name));
    }
}
