package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.FileOutputStore;
import dev.orderly.grpc.GrpcTier2Client;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Tier2Main} as a real process: it runs the worker it was given, writes request R's outputs under
 * {@code --outputs/R/}, and a SIGTERM drains it and ends it. No child outlives the test.
 */
@Timeout(120)
class Tier2ProcessTest {

    @TempDir
    Path dir;

    /** Starts a Tier2Main child and returns it with its port, read from its first line. */
    static Started start(Path logs, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElseThrow(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"),
                Tier2Main.class.getName(), "--port=0"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .redirectError(logs.resolve("tier2.log").toFile()).start();
        CompletableFuture<String> first = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                first.complete(r.readLine());
                while (r.readLine() != null) {
                    // drained
                }
            } catch (Exception e) {
                first.completeExceptionally(e);
            }
        });
        try {
            String line = first.get(60, TimeUnit.SECONDS);
            assertTrue(line != null && line.startsWith("listening on 127.0.0.1:"),
                    "first line: " + line + "; log: " + Files.readString(logs.resolve("tier2.log")));
            return new Started(p, Integer.parseInt(line.substring(line.lastIndexOf(':') + 1)));
        } catch (Exception | AssertionError e) {
            stop(p);
            throw e;
        }
    }

    record Started(Process process, int port) {
    }

    static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void runsTheNamedProviderWithItsOptionsAndWritesUnderTheRequestsDirectory() throws Exception {
        Started t = start(dir, "--outputs=" + dir.resolve("out"), "--worker=" + TestWorkers.Provider.class.getName(),
                "--greeting=hi ");
        try (GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + t.port()))
                .work(j -> "work".getBytes(StandardCharsets.UTF_8)).build()) {
            Job job = new Job("req-1", new JobKey(5, 0), 1);
            try (Tier2Call call = client.dial(job)) {
                call.await();
            }
            assertArrayEquals("hi work".getBytes(StandardCharsets.UTF_8),
                    new FileOutputStore(dir.resolve("out").resolve("req-1")).read(5).orElseThrow());
        } finally {
            stop(t.process());
        }
        assertFalse(t.process().isAlive());
    }

    @Test
    void requestIdThatCanNotNameADirectoryIsFatal() throws Exception {
        Started t = start(dir, "--outputs=" + dir.resolve("out"), "--worker=" + TestWorkers.Echo.class.getName());
        try (GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + t.port()))
                .build()) {
            Tier2Exception e;
            try (Tier2Call call = client.dial(new Job("../escape", new JobKey(0, 0), 1))) {
                e = org.junit.jupiter.api.Assertions.assertThrows(Tier2Exception.class, call::await);
            }
            assertEquals(Tier2Exception.Kind.FATAL, e.kind());
            assertTrue(e.getMessage().contains("request id"), e.getMessage());
        } finally {
            stop(t.process());
        }
    }

    @Test
    void sigtermEndsTheProcessAfterItDrains() throws Exception {
        Started t = start(dir, "--outputs=" + dir.resolve("out"), "--worker=" + TestWorkers.Echo.class.getName(),
                "--drain-grace=1s");
        t.process().destroy();
        assertTrue(t.process().waitFor(30, TimeUnit.SECONDS), "still alive 30 s after SIGTERM");
        assertEquals(143, t.process().exitValue(), "a SIGTERM'd JVM exits with 128 + 15 once its hooks are done");
    }
}
