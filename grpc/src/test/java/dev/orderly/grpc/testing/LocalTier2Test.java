package dev.orderly.grpc.testing;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.grpc.Tier2Server;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** An embedder's worker tested through the real transport, with nothing left behind. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalTier2Test {

    private static final Engine ENGINE = Orderly.engine(EngineConfig.builder()
            .refusedDelay(Duration.ofMillis(5)).failureDelay(Duration.ofMillis(5)).build());

    private static byte[] render(long segment) {
        return ("rendered " + segment).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theEngineRunsARequestOnTheEmbeddersWorkerOverGrpc() throws Exception {
        RequestPlan plan = new RequestPlan(0, 12, 2, 4);
        InMemoryOutputStore store = new InMemoryOutputStore();
        List<Long> delivered = new ArrayList<>();
        int port;
        try (LocalTier2 tier2 = LocalTier2.start(Tier2Server.builder().maxConcurrentJobs(2)
                .worker((job, work) -> {
                    if (job.key().stage() == plan.stages() - 1) {
                        store.write(job.key().segment(), render(job.key().segment()));
                    }
                }))) {
            port = tier2.server().port();
            RequestResult result = ENGINE.run(Request.of(plan, tier2.client(), store, (segment, output) -> {
                assertArrayEquals(render(segment), output);
                delivered.add(segment);
            }));
            assertEquals(12, result.segmentsDelivered());
            // The tier2 gives a slot back just after it has told the client the job's end, and hears of a job
            // cancelled at the request's end over the network: a slot may still be held a moment after run returns.
            await().atMost(Duration.ofSeconds(10)).until(() -> tier2.server().jobsHeld() == 0);
            // Every segment's output was written by a last-stage job that the server admitted.
            assertTrue(tier2.server().jobsAdmitted() >= 12, "admitted " + tier2.server().jobsAdmitted());
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L), delivered);
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            // Linux connects a socket to itself when the free port it dials is the one it picks for the socket (a
            // port in the ephemeral range, as the server's was): nobody listened.
            assertEquals(port, s.getLocalPort(), "the server still listens after close");
        } catch (ConnectException expected) {
            // refused: nothing listens
        }
    }

    @Test
    void aFatalErrorOfTheWorkerFailsTheRequestNamingItsUnit() throws Exception {
        RequestPlan plan = new RequestPlan(0, 4, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        try (LocalTier2 tier2 = LocalTier2.start(Tier2Server.builder().worker((job, work) -> {
            if (job.key().segment() == 2) {
                throw Tier2Exception.fatal("segment 2 is corrupt", null);
            }
            store.write(job.key().segment(), render(job.key().segment()));
        }))) {
            RequestFailedException e = assertThrows(RequestFailedException.class,
                    () -> ENGINE.run(Request.of(plan, tier2.client(), store, (segment, output) -> { })));
            assertEquals(new JobKey(2, 0), e.key().orElseThrow());
            assertTrue(e.getMessage().contains("segment 2 is corrupt"), e.getMessage());
        }
    }

    @Test
    void theServersExecutionLimitEndsAStuckWorkerAsATimeoutAndFreesItsSlot() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        try (LocalTier2 tier2 = LocalTier2.start(Tier2Server.builder().worker((job, work) -> never.await())
                .executionTimeout(Duration.ofMillis(200)))) {
            try (Tier2Call call = tier2.client().dial(new Job("r", new JobKey(0, 0), 1))) {
                assertEquals(Tier2Exception.Kind.EXECUTION_TIMEOUT,
                        assertThrows(Tier2Exception.class, call::await).kind());
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> tier2.server().jobsHeld() == 0);
        }
    }

    @Test
    void theClientsOwnSettingsApply() throws Exception {
        AtomicReference<String> seen = new AtomicReference<>();
        try (LocalTier2 tier2 = LocalTier2.start(
                Tier2Server.builder().worker((job, work) -> seen.set(new String(work, StandardCharsets.UTF_8))),
                client -> client.work(job -> ("work of " + job.key().segment()).getBytes(StandardCharsets.UTF_8)))) {
            try (Tier2Call call = tier2.client().dial(new Job("r", new JobKey(7, 0), 1))) {
                call.await();
            }
        }
        assertEquals("work of 7", seen.get());
    }

    @Test
    void aServerWithoutAWorkerIsRefusedBeforeAnythingStarts() {
        assertThrows(IllegalStateException.class, () -> LocalTier2.start(Tier2Server.builder()));
    }
}
