package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.testing.net.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@link Tier2Security} says "every failure names the file" (its javadoc, docs/guide/securing.md), but it
 * only checked that the files could be read: grpc-java's {@code TlsServerCredentials}/{@code TlsChannelCredentials}
 * keep the bytes unread, so a file that holds no PEM certificate (or no PKCS#8 key: a certificate and key given the
 * wrong way round, a PKCS#1 {@code BEGIN RSA PRIVATE KEY}) was taken, and found only at
 * {@code Tier2Server.Builder.build()} / {@code GrpcTier2Client.Builder.build()} as Netty's
 * {@code IllegalArgumentException: Input stream not contain valid certificates.}, naming no file and no setting.
 */
@Timeout(60)
class ATlsFileThatHoldsNoPemIsNamedWhenReadTest {

    @TempDir
    Path dir;

    @Test
    void aServerCertificateAndKeyGivenTheWrongWayRoundAreNamed() throws Exception {
        TestCertificates.Pem pem = TestCertificates.authority(dir, "fleet").leaf("tier2");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tier2Security.serverCredentials(pem.key(), pem.certificate(), null));
        assertTrue(e.getMessage().contains(pem.key().toString()), e.getMessage());
    }

    @Test
    void aClientCaThatHoldsNoCertificateIsNamedOnBothSides() throws Exception {
        TestCertificates.Pem pem = TestCertificates.authority(dir, "fleet").leaf("tier2");
        Path notACa = Files.writeString(dir.resolve("ca.pem"), "not a certificate\n");
        IllegalArgumentException server = assertThrows(IllegalArgumentException.class,
                () -> Tier2Security.serverCredentials(pem.certificate(), pem.key(), notACa));
        assertTrue(server.getMessage().contains(notACa.toString()), server.getMessage());
        IllegalArgumentException client = assertThrows(IllegalArgumentException.class,
                () -> Tier2Security.clientCredentials(notACa, null, null));
        assertTrue(client.getMessage().contains(notACa.toString()), client.getMessage());
    }
}
