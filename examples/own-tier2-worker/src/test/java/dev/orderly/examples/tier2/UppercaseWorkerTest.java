package dev.orderly.examples.tier2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.grpc.Tier2Server;
import dev.orderly.s3.S3OutputStore;
import dev.orderly.s3.S3ProxyFixture;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job worker's tests: first in-process (a {@link Tier2Server} in this JVM), then as it runs for real: three
 * {@code Tier2Main} processes that find it on their class path, outputs in S3 (a real S3 API server on loopback), and
 * one request delivered in order.
 */
@Timeout(180)
class UppercaseWorkerTest {

    @TempDir
    Path dir;

    private static byte[] work(long segment) {
        return ("segment " + segment).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] expected(long segment) {
        return ("SEGMENT " + segment).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void writesTheWorkInUpperCaseAsTheOutput() throws Exception {
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        try (Tier2Server tier2 = Tier2Server.builder().port(0).worker(new UppercaseWorker())
                .outputs((requestId, segment, output) -> outputs.write(segment, output)).build().start();
             GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + tier2.port()))
                     .work(job -> work(job.key().segment())).build()) {
            RequestResult result = Orderly.engine().run(Request.of(new RequestPlan(0, 10, 1, 4), client, outputs,
                    (segment, output) -> assertArrayEquals(expected(segment), output)));
            assertEquals(10, result.segmentsDelivered());
        }
    }

    @Test
    void threeTier2ProcessesWithOutputsInS3DeliverARequestInOrder() throws Exception {
        List<Process> fleet = new ArrayList<>();
        try (S3ProxyFixture s3 = S3ProxyFixture.start(dir.resolve("s3"))) {
            s3.createBucket("outputs");
            try {
                for (int i = 0; i < 3; i++) {
                    fleet.add(startTier2(s3, i));
                }
                List<String> addresses = new ArrayList<>();
                for (Process p : fleet) {
                    addresses.add(listeningOn(p));
                }
                S3OutputStore outputs = S3OutputStore.builder().client(s3.client()).bucket("outputs")
                        .prefix("requests/req-1/").build(); // where the tier2s put request req-1
                AtomicLong next = new AtomicLong();
                try (GrpcTier2Client client = GrpcTier2Client.builder().addresses(addresses)
                        .work(job -> work(job.key().segment())).build()) {
                    RequestResult result = Orderly.engine().run(Request.of(new RequestPlan(0, 30, 1, 6), client,
                            outputs, (segment, output) -> {
                                assertEquals(next.getAndIncrement(), segment);
                                assertArrayEquals(expected(segment), output);
                            }).withId("req-1"));
                    assertEquals(30, result.segmentsDelivered());
                }
            } finally {
                for (Process p : fleet) {
                    p.destroy();
                    if (!p.waitFor(30, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                    }
                }
            }
        }
        assertTrue(ProcessHandle.current().children().noneMatch(ProcessHandle::isAlive), "a tier2 outlived the test");
    }

    /** {@code java -cp <this class path> dev.orderly.tier2.Tier2Main ...}: the worker is found on the class path. */
    private Process startTier2(S3ProxyFixture s3, int i) throws Exception {
        ProcessBuilder tier2 = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "dev.orderly.tier2.Tier2Main", "--port=0", "--max-concurrent=2",
                "--outputs=s3://outputs/requests", "--s3-endpoint=" + s3.endpoint())
                .redirectError(Files.createFile(dir.resolve("tier2-" + i + ".log")).toFile());
        // Tier2Main takes its keys from the AWS SDK's usual chain: here, the test server's, and no look-up of an
        // instance metadata service (a non-loopback address).
        tier2.environment().put("AWS_ACCESS_KEY_ID", S3ProxyFixture.IDENTITY);
        tier2.environment().put("AWS_SECRET_ACCESS_KEY", S3ProxyFixture.CREDENTIAL);
        tier2.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        return tier2.start();
    }

    /** The first line a tier2 prints, {@code listening on 127.0.0.1:<port>}, as {@code 127.0.0.1:<port>}. */
    private static String listeningOn(Process p) throws Exception {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = r.readLine(); // the process prints it within seconds, or ends (null)
        assertTrue(line != null && line.startsWith("listening on "), "tier2 said: " + line);
        Thread.ofVirtual().start(() -> r.lines().forEach(l -> { })); // keep its pipe drained
        return line.substring("listening on ".length());
    }
}
