package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.grpc.GrpcTier2Client;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Tier2Main --host=::1} printed {@code listening on ::1:PORT}: unbracketed, that is itself an IPv6 literal
 * ({@code 0:0:0:0:0:0:1:PORT}), and a tier1 given it as its target dialed that address on gRPC's default port 443,
 * never the tier2. The line must be a {@code host:port} a tier1 can dial as it is: {@code [::1]:PORT}.
 */
@Timeout(120)
class AnIpv6HostIsPrintedAsAnAddressATier1CanDialTest {

    @TempDir
    Path dir;

    @Test
    void theListeningLineOfAnIpv6HostIsATargetThatReachesTheTier2() throws Exception {
        Path log = dir.resolve("tier2.err");
        Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Tier2Main.class.getName(), "--host=::1", "--port=0", "--health-port=0",
                "--outputs=" + dir.resolve("out"), "--worker=" + TestWorkers.Echo.class.getName())
                .redirectError(log.toFile()).start();
        try {
            CompletableFuture<List<String>> lines = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String first = r.readLine();
                    String second = r.readLine();
                    lines.complete(java.util.Arrays.asList(first, second));
                    while (r.readLine() != null) {
                        // drained
                    }
                } catch (IOException e) {
                    lines.completeExceptionally(e);
                }
            });
            List<String> said = lines.get(60, TimeUnit.SECONDS);
            String listening = said.get(0);
            assertTrue(listening != null && listening.startsWith("listening on "),
                    "tier2 said '" + listening + "'; its log: " + Files.readString(log));
            String address = listening.substring("listening on ".length());
            Matcher bracketed = Pattern.compile("\\[::1]:(\\d+)").matcher(address);
            assertTrue(bracketed.matches(), "'" + listening + "' is no host:port a tier1 can dial: '" + address
                    + "' reads as the IPv6 address " + address + " on the default port");
            assertTrue(said.get(1) != null && said.get(1).matches("health on \\[::1]:\\d+"), said.get(1));
            try (GrpcTier2Client client = GrpcTier2Client.builder().target(address)
                    .admissionTimeout(Duration.ofSeconds(30)).work(j -> "w".getBytes(StandardCharsets.UTF_8))
                    .build();
                    Tier2Call call = client.dial(new Job("req-1", new JobKey(0, 0), 1))) {
                call.await();
            }
            assertEquals("w", Files.readString(dir.resolve("out").resolve("req-1")
                    .resolve("segment-0.out")));
        } finally {
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
