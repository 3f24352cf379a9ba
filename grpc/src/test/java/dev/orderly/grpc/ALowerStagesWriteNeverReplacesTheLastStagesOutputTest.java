package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.EngineConfig;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker written as the guide's example (it writes its output at every stage, "only the last stage's output is
 * read by the tier1") had the output of a stage below the last, still running beside the last stage of its segment,
 * replace the last stage's output: the client was handed stage 0's bytes as segment 1.
 */
@Timeout(60)
class ALowerStagesWriteNeverReplacesTheLastStagesOutputTest {

    @Test
    void theClientGetsTheLastStagesOutputThoughALowerStageWroteAfterIt() throws Exception {
        assertEquals(List.of("segment 0 stage 1", "segment 1 stage 1"), delivered(client -> client));
    }

    /**
     * Runs a request of 2 segments and 2 stages on a real tier2 whose worker writes at every stage, with stage 0 of
     * segment 1 writing after stage 1 of that segment, through the client {@code wrap} makes of a gRPC client, and
     * returns the outputs its client was handed.
     */
    static List<String> delivered(UnaryOperator<Tier2Client> wrap) throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch segment1Stage0Started = new CountDownLatch(1);
        CountDownLatch segment1Stage1Wrote = new CountDownLatch(1);
        CountDownLatch segment1Stage0Wrote = new CountDownLatch(1);
        JobWorker.WithContext worker = context -> {
            JobKey key = context.job().key();
            if (key.equals(new JobKey(0, 0))) {
                // covered by (0, 1): cancelled before it writes anything
                new CountDownLatch(1).await(20, TimeUnit.SECONDS);
                return;
            }
            if (key.equals(new JobKey(0, 1))) {
                // ends once (1, 0) runs, so that (1, 1) runs beside it
                segment1Stage0Started.await(20, TimeUnit.SECONDS);
            }
            if (key.equals(new JobKey(1, 0))) {
                segment1Stage0Started.countDown();
                segment1Stage1Wrote.await(20, TimeUnit.SECONDS); // a slower job: ends after (1, 1) wrote
            }
            context.writeOutput(("segment " + key.segment() + " stage " + key.stage())
                    .getBytes(StandardCharsets.UTF_8));
            if (key.equals(new JobKey(1, 0))) {
                segment1Stage0Wrote.countDown();
            }
            if (key.equals(new JobKey(1, 1))) {
                segment1Stage1Wrote.countDown();
                segment1Stage0Wrote.await(20, TimeUnit.SECONDS); // reports Completed just after (1, 0) wrote
            }
        };
        List<String> delivered = new CopyOnWriteArrayList<>();
        try (Tier2Server server = Tier2Server.builder().host("127.0.0.1").maxConcurrentJobs(4).worker(worker)
                .outputs((requestId, segment, output) -> store.write(segment, output))
                .drainGrace(Duration.ZERO).build().start();
             GrpcTier2Client client = GrpcTier2Client.builder().target("127.0.0.1:" + server.port()).build()) {
            Orderly.engine(EngineConfig.builder().build()).run(Request.of(new RequestPlan(0, 2, 2, 3),
                    wrap.apply(client), store,
                    (segment, output) -> delivered.add(new String(output, StandardCharsets.UTF_8))));
        }
        return delivered;
    }
}
