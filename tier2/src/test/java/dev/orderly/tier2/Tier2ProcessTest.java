package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.FileOutputStore;
import dev.orderly.grpc.GrpcTier2Client;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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

    @Test
    void runsTheNamedProviderWithItsOptionsAndWritesUnderTheRequestsDirectory() throws Exception {
        Tier2Child t = Tier2Child.start(dir, Map.of(), "--outputs=" + dir.resolve("out"),
                "--worker=" + TestWorkers.Provider.class.getName(), "--greeting=hi ");
        try (t; GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of(t.address()))
                .work(j -> "work".getBytes(StandardCharsets.UTF_8)).build()) {
            try (Tier2Call call = client.dial(new Job("req-1", new JobKey(5, 0), 1))) {
                call.await();
            }
            assertArrayEquals("hi work".getBytes(StandardCharsets.UTF_8),
                    new FileOutputStore(dir.resolve("out").resolve("req-1")).read(5).orElseThrow());
        }
        assertFalse(t.process().isAlive());
    }

    @Test
    void requestIdThatCanNotNameADirectoryIsFatal() throws Exception {
        Tier2Child t = Tier2Child.start(dir, Map.of(), "--outputs=" + dir.resolve("out"),
                "--worker=" + TestWorkers.Echo.class.getName());
        try (t; GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of(t.address())).build()) {
            Tier2Exception e;
            try (Tier2Call call = client.dial(new Job("../escape", new JobKey(0, 0), 1))) {
                e = assertThrows(Tier2Exception.class, call::await);
            }
            assertEquals(Tier2Exception.Kind.FATAL, e.kind());
            assertTrue(e.getMessage().contains("request id"), e.getMessage());
        }
    }

    @Test
    void sigtermEndsTheProcessAfterItDrains() throws Exception {
        Tier2Child t = Tier2Child.start(dir, Map.of(), "--outputs=" + dir.resolve("out"),
                "--worker=" + TestWorkers.Echo.class.getName(), "--drain-grace=1s");
        try (t) {
            t.process().destroy();
            assertTrue(t.process().waitFor(30, TimeUnit.SECONDS), "still alive 30 s after SIGTERM");
            assertEquals(143, t.process().exitValue(), "a SIGTERM'd JVM exits with 128 + 15 once its hooks ran");
        }
    }
}
