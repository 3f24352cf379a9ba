package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code TestCertificates} says it is thread-safe, but {@code leaf(name)} wrote the certificate, then
 * the key, with nothing held between: two threads making the same leaf at once could leave one pair's certificate
 * beside the other pair's key, and a TLS server given the two files failed with a key that is not the
 * certificate's. The files a leaf returns are now always one pair; a second {@code leaf(name)} still makes a new one.
 */
class TwoLeavesOfOneNameAtOnceLeaveAMatchingPairTest {

    private static final int ROUNDS = 150;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void theCertificateAndKeyOnDiskAreOnePairAfterEveryRound() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Integer> mismatched = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<TestCertificates.Pem>> both = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    both.add(pool.submit(() -> {
                        start.await(30, TimeUnit.SECONDS);
                        return ca.leaf("tier2");
                    }));
                }
                TestCertificates.Pem first = both.get(0).get(30, TimeUnit.SECONDS);
                assertEquals(first, both.get(1).get(30, TimeUnit.SECONDS));
                if (!onePair(first)) {
                    mismatched.add(round);
                }
            }
            assertTrue(mismatched.isEmpty(), "the certificate and key on disk were of different pairs after rounds "
                    + mismatched + " of " + ROUNDS);
            // A later leaf of the same name still makes a new pair, and its files are that pair.
            X509Certificate before = PemFiles.certificate(ca.leaf("tier2").certificate());
            TestCertificates.Pem again = ca.leaf("tier2");
            assertTrue(!before.equals(PemFiles.certificate(again.certificate())), "a second leaf made no new one");
            assertTrue(onePair(again), "a second leaf's files are not one pair");
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    /** Whether the key file signs what the certificate file's public key verifies (false if either is unreadable). */
    private static boolean onePair(TestCertificates.Pem pem) {
        try {
            X509Certificate cert = PemFiles.certificate(pem.certificate());
            PrivateKey key;
            try (Reader r = Files.newBufferedReader(pem.key(), StandardCharsets.US_ASCII);
                 PEMParser parser = new PEMParser(r)) {
                key = new JcaPEMKeyConverter().getPrivateKey((PrivateKeyInfo) parser.readObject());
            }
            byte[] data = "pair".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(key);
            signer.update(data);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance("SHA256withECDSA");
            verifier.initVerify(cert.getPublicKey());
            verifier.update(data);
            return verifier.verify(signature);
        } catch (Exception e) {
            return false;
        }
    }
}
