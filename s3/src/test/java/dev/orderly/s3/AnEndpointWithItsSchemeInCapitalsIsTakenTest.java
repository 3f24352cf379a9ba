package dev.orderly.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Regression: {@link S3Clients#create} compared the endpoint's scheme with {@code "http"} and {@code "https"} as
 * written, so {@code HTTP://host:9000}, the same URL (a scheme knows no case, RFC 3986 3.1, as {@code --outputs}
 * already takes {@code S3://}), was refused as "must be an http:// or https:// URL with a host", and
 * {@code Tier2Main --s3-endpoint=HTTP://…} exited 2 saying so. It is now taken, and works.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AnEndpointWithItsSchemeInCapitalsIsTakenTest {

    @Test
    void anEndpointWrittenHttpInCapitalsReachesTheServer(@TempDir Path dir) throws Exception {
        try (S3ProxyFixture s3 = S3ProxyFixture.start(dir)) {
            s3.createBucket("outputs");
            URI capitals = URI.create("HTTP://127.0.0.1:" + s3.endpoint().getPort());
            try (S3Client client = S3Clients.create(capitals, S3ProxyFixture.credentials())) {
                S3OutputStore store = S3OutputStore.builder().client(client).bucket("outputs").prefix("r/").build();
                byte[] output = "output 7".getBytes(StandardCharsets.UTF_8);
                store.write(7, output);
                assertArrayEquals(output, store.read(7).orElseThrow());
            }
        }
    }
}
