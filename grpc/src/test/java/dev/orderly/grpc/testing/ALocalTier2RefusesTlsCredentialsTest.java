package dev.orderly.grpc.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.grpc.Tier2Security;
import dev.orderly.grpc.Tier2Server;
import dev.orderly.testing.net.TestCertificates;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code LocalTier2.start} says it throws {@code IllegalStateException} for a builder with credentials (a
 * local pair is plaintext), but it started the TLS server and gave it a plaintext client, which no dial could get
 * through; it now asks the builder for plaintext, which refuses credentials, and starts nothing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ALocalTier2RefusesTlsCredentialsTest {

    @TempDir
    Path dir;

    @Test
    void aServerBuilderWithCredentialsIsRefused() throws Exception {
        TestCertificates.Pem leaf = TestCertificates.authority(dir, "fleet").leaf("tier2");
        Tier2Server.Builder tls = Tier2Server.builder().worker((job, work) -> { })
                .credentials(Tier2Security.serverCredentials(leaf.certificate(), leaf.key(), null));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
            try (LocalTier2 started = LocalTier2.start(tls)) {
                started.server(); // reached only if it started: close it
            }
        });
        assertEquals("give credentials(...) or call plaintext(), not both", e.getMessage());
    }
}
