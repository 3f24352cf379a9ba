package dev.orderly.grpc.testing;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.grpc.Tier2Security;
import dev.orderly.grpc.Tier2Server;
import dev.orderly.testing.net.TestCertificates;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a {@code LocalTier2} is the server's own Netty transport on {@code 127.0.0.1} in plaintext and a plaintext
 * client for it, but a builder given {@code serverBuilder(...)} (a Netty builder with TLS, say) was started as it was
 * built, host, port and plaintext ignored: the TLS server got a plaintext client no dial could get through. It is now
 * refused at start, naming {@code serverBuilder(...)}, and nothing is started.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ALocalTier2RefusesAServerBuilderOfItsOwnTest {

    @TempDir
    Path dir;

    @Test
    void aServerBuilderWithItsOwnTlsIsRefusedNamingIt() throws Exception {
        TestCertificates.Pem leaf = TestCertificates.authority(dir, "fleet").leaf("tier2");
        Tier2Server.Builder tls = Tier2Server.builder().worker((job, work) -> { })
                .serverBuilder(NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0),
                        Tier2Security.serverCredentials(leaf.certificate(), leaf.key(), null)));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
            try (LocalTier2 started = LocalTier2.start(tls, c -> c.admissionTimeout(Duration.ofSeconds(5)))) {
                // reached only if it started: the plaintext client dials the TLS server
                started.client().dial(new Job("r", new JobKey(0, 0), 1)).close();
            }
        });
        assertTrue(e.getMessage().contains("serverBuilder(...)"), e.getMessage());
    }
}
