package dev.orderly.examples.testingkit;

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
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.grpc.JobWorker;
import dev.orderly.grpc.Tier2Server;
import dev.orderly.grpc.testing.LocalTier2;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How an embedder tests its own {@link JobWorker}: behind a real tier2 server and the real gRPC client, on loopback,
 * with the engine in front, so what the worker throws reaches the request as the transport maps it.
 */
@Timeout(60)
class OwnWorkerOverGrpcTest {

    /** The embedder's worker: renders a segment's last stage into the store the tier1 reads; a bad segment is fatal. */
    static final class RenderingWorker implements JobWorker {
        private final InMemoryOutputStore store;
        private final int lastStage;

        RenderingWorker(InMemoryOutputStore store, int lastStage) {
            this.store = store;
            this.lastStage = lastStage;
        }

        static byte[] render(long segment) {
            return ("segment " + segment + " rendered").getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public void run(Job job, byte[] work) throws Tier2Exception {
            if (job.key().segment() == 13) {
                throw Tier2Exception.fatal("segment 13 can not be rendered", null);
            }
            if (job.key().stage() == lastStage) {
                store.write(job.key().segment(), render(job.key().segment()));
            }
        }
    }

    private final Engine engine = Orderly.engine(EngineConfig.builder()
            .refusedDelay(Duration.ofMillis(5)).failureDelay(Duration.ofMillis(5)).build());

    @Test
    void everySegmentArrivesInOrderThroughTheRealTransport() throws Exception {
        RequestPlan plan = new RequestPlan(0, 10, 2, 4);       // 4 workers against 2 slots: some dials are refused
        InMemoryOutputStore store = new InMemoryOutputStore();
        List<Long> seen = new CopyOnWriteArrayList<>();
        try (LocalTier2 tier2 = LocalTier2.start(Tier2Server.builder().maxConcurrentJobs(2)
                .worker(new RenderingWorker(store, plan.stages() - 1)))) {
            RequestResult result = engine.run(Request.of(plan, tier2.client(), store, (segment, output) -> {
                assertArrayEquals(RenderingWorker.render(segment), output);
                seen.add(segment);
            }));
            assertEquals(10, result.segmentsDelivered());
            // The tier2 gives a slot back just after it has told the client the job's end, and hears of a job
            // cancelled at the request's end (a lower stage a higher one covered) over the network: a slot may still
            // be held for a moment after run returns.
            await().atMost(Duration.ofSeconds(10)).until(() -> tier2.server().jobsHeld() == 0);
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), seen);
    }

    @Test
    void theWorkersFatalErrorFailsTheRequestAndNamesTheUnit() throws Exception {
        RequestPlan plan = new RequestPlan(10, 20, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        try (LocalTier2 tier2 = LocalTier2.start(Tier2Server.builder().worker(new RenderingWorker(store, 0)))) {
            RequestFailedException e = assertThrows(RequestFailedException.class,
                    () -> engine.run(Request.of(plan, tier2.client(), store, (segment, output) -> { })));
            assertEquals(new JobKey(13, 0), e.key().orElseThrow());
            assertTrue(e.getMessage().contains("segment 13 can not be rendered"), e.getMessage());
        }
    }
}
