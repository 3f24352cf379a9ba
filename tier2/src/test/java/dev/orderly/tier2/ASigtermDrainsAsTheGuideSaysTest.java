package dev.orderly.tier2;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.grpc.JobWorker;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Tier2Main} stopped by SIGTERM with a job running, as the guides say: the job finishes within
 * {@code --drain-grace} and its client sees {@code Completed}; a new dial meanwhile is turned away as nothing ran
 * (UNREACHABLE, "draining"); both health statuses say NOT_SERVING; the process then ends with 143.
 */
@Timeout(120)
class ASigtermDrainsAsTheGuideSaysTest {

    @TempDir
    Path dir;

    /** Runs until the file its work names exists. */
    public static final class UntilFile implements JobWorker {
        @Override
        public void run(Job job, byte[] work) throws Exception {
            Path release = Path.of(new String(work, StandardCharsets.UTF_8));
            while (!Files.exists(release)) {
                Thread.sleep(10); // the job's own work; the test bounds every wait of its own
            }
        }
    }

    @Test
    void aRunningJobFinishesNewDialsAreTurnedAwayHealthSaysNotServingAndTheProcessEnds143() throws Exception {
        Path release = dir.resolve("release");
        Tier2Child t = Tier2Child.start(dir, Map.of(), "--outputs=" + dir.resolve("out"),
                "--worker=" + UntilFile.class.getName(), "--drain-grace=60s");
        ManagedChannel probe = ManagedChannelBuilder.forTarget(t.address()).usePlaintext().build();
        try (t; GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of(t.address()))
                .healthChecking(false).work(j -> release.toString().getBytes(StandardCharsets.UTF_8)).build()) {
            Tier2Call running = client.dial(new Job("r", new JobKey(0, 0), 1));
            t.process().destroy(); // SIGTERM
            HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(probe);
            await().atMost(20, SECONDS).until(() -> health.withDeadlineAfter(5, SECONDS)
                    .check(HealthCheckRequest.newBuilder().setService("").build()).getStatus()
                    == ServingStatus.NOT_SERVING);
            assertEquals(ServingStatus.NOT_SERVING, health.withDeadlineAfter(5, SECONDS)
                    .check(HealthCheckRequest.newBuilder().setService("orderly.tier2.v1.Tier2").build()).getStatus());

            Tier2Exception turnedAway = assertThrows(Tier2Exception.class,
                    () -> client.dial(new Job("r", new JobKey(1, 0), 1)).close());
            assertEquals(Tier2Exception.Kind.UNREACHABLE, turnedAway.kind(), turnedAway.getMessage());
            assertTrue(turnedAway.getMessage().contains("draining"), turnedAway.getMessage());
            assertTrue(t.process().isAlive(), "the drain ended before its running job did");

            Files.createFile(release);
            running.await(); // Completed, not stopped
            running.close();
            assertTrue(t.process().waitFor(30, TimeUnit.SECONDS), "still alive 30 s after its last job ended");
            assertEquals(143, t.process().exitValue());
        } finally {
            probe.shutdownNow();
            probe.awaitTermination(5, SECONDS);
        }
        assertFalse(t.process().isAlive());
    }
}
