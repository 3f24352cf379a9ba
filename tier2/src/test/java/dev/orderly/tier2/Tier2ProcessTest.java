package dev.orderly.tier2;

import static org.awaitility.Awaitility.await;
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
import dev.orderly.grpc.Tier2Security;
import dev.orderly.testing.net.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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
    void overTlsWithATokenOnlyTheTokenHolderRunsJobs() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        TestCertificates.Pem server = ca.leaf("tier2");
        Path tokens = java.nio.file.Files.writeString(dir.resolve("tokens"), "# rotation\nold\nnew\n");
        Tier2Child t = Tier2Child.start(dir, Map.of(), "--outputs=" + dir.resolve("out"),
                "--worker=" + TestWorkers.Echo.class.getName(), "--tls-cert=" + server.certificate(),
                "--tls-key=" + server.key(), "--token-file=" + tokens);
        try (t; GrpcTier2Client good = GrpcTier2Client.builder().addresses(List.of(t.address()))
                     .credentials(Tier2Security.clientCredentials(ca.caCertificate(), null, null))
                     .bearerToken(() -> "new").work(j -> "w".getBytes(StandardCharsets.UTF_8)).build();
             GrpcTier2Client wrong = GrpcTier2Client.builder().addresses(List.of(t.address()))
                     .credentials(Tier2Security.clientCredentials(ca.caCertificate(), null, null))
                     .bearerToken(() -> "guess").build()) {
            try (Tier2Call call = good.dial(new Job("req-1", new JobKey(0, 0), 1))) {
                call.await();
            }
            Tier2Exception e = assertThrows(Tier2Exception.class, () -> wrong.dial(new Job("req-1",
                    new JobKey(1, 0), 1)).close());
            assertEquals(Tier2Exception.Kind.FATAL, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains(t.address()), e.getMessage());
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
    void withARoomAFullProcessHoldsADialThatAsksToWaitAndAdmitsItWhenTheSlotFrees() throws Exception {
        Tier2Child t = Tier2Child.start(dir, Map.of(), "--outputs=" + dir.resolve("out"), "--max-concurrent=1",
                "--room=2", "--admission-wait=30s", "--worker=" + TestWorkers.UntilCancelled.class.getName());
        try (t; GrpcTier2Client old = GrpcTier2Client.builder().addresses(List.of(t.address()))
                     .healthChecking(false).build();
             GrpcTier2Client patient = GrpcTier2Client.builder().addresses(List.of(t.address()))
                     .healthChecking(false).admissionWait(Duration.ofSeconds(30)).build()) {
            Tier2Call holder = old.dial(new Job("h", new JobKey(0, 0), 1));
            Tier2Exception refused = assertThrows(Tier2Exception.class,
                    () -> old.dial(new Job("o", new JobKey(1, 0), 1)));
            assertEquals(Tier2Exception.Kind.REFUSED, refused.kind(), "a dial that does not ask to wait");
            AtomicReference<Object> waited = new AtomicReference<>();
            Thread dial = Thread.ofVirtual().start(() -> {
                try {
                    waited.set(patient.dial(new Job("w", new JobKey(2, 0), 1)));
                } catch (Tier2Exception | InterruptedException e) {
                    waited.set(e);
                }
            });
            // a refusal comes in milliseconds; this one waits for the slot
            await().during(Duration.ofMillis(300)).atMost(5, TimeUnit.SECONDS).until(() -> waited.get() == null);
            holder.close();
            dial.join(Duration.ofSeconds(20));
            assertTrue(waited.get() instanceof Tier2Call, "not admitted: " + waited.get());
            ((Tier2Call) waited.get()).close();
        }
        assertFalse(t.process().isAlive());
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
