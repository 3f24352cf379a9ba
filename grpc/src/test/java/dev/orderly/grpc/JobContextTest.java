package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.grpc.proto.ProcessRangeRequest;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ClientCalls;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a worker gets besides its job: {@link JobContext#writeOutput} writes through the server's {@link JobOutputs}
 * to the place of the job's request and segment, {@link JobContext#sendUpdate} reaches the client as {@code Update}
 * messages before {@code Completed}, and {@link Tier2Server#awaitTermination()} returns once a close has drained.
 */
@Timeout(60)
class JobContextTest {

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final Map<String, InMemoryOutputStore> stores = new ConcurrentHashMap<>();
    private final JobOutputs perRequest = (requestId, segment, output) ->
            stores.computeIfAbsent(requestId, r -> new InMemoryOutputStore()).write(segment, output);

    @AfterEach
    void tearDown() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private record Fixture(Tier2Server server, GrpcTier2Client client, ManagedChannel channel) {
    }

    private Fixture serve(Tier2Server.Builder b) throws Exception {
        String name = InProcessServerBuilder.generateName();
        Tier2Server server = b.serverBuilder(InProcessServerBuilder.forName(name)).build().start();
        toClose.add(server);
        ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
        toClose.add(() -> channel.shutdownNow().awaitTermination(5, SECONDS));
        return new Fixture(server, GrpcTier2Client.builder().channel(channel).build(), channel);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void writeOutputLandsInTheStoreOfTheJobsRequestAndSegment() throws Exception {
        JobWorker.WithContext worker = c -> c.writeOutput(bytes("out of " + c.job().key()));
        Fixture f = serve(Tier2Server.builder().worker(worker).outputs(perRequest));
        try (Tier2Call call = f.client().dial(new Job("req-a", new JobKey(7, 1), 1))) {
            call.await();
        }
        try (Tier2Call call = f.client().dial(new Job("req-b", new JobKey(3, 0), 1))) {
            call.await();
        }
        assertArrayEquals(bytes("out of " + new JobKey(7, 1)), stores.get("req-a").read(7).orElseThrow());
        assertTrue(stores.get("req-a").read(3).isEmpty());
        assertArrayEquals(bytes("out of " + new JobKey(3, 0)), stores.get("req-b").read(3).orElseThrow());
    }

    @Test
    void plainWorkerStillRunsWithItsJobAndWork() throws Exception {
        List<String> seen = new ArrayList<>();
        JobWorker plain = (job, work) -> seen.add(job.requestId() + ":" + new String(work, StandardCharsets.UTF_8));
        Fixture f = serve(Tier2Server.builder().worker(plain));
        ProcessRangeRequest request = ProcessRangeRequest.newBuilder().setRequestId("r").setSegment(0).setStage(0)
                .setAttempt(1).setWork(ByteString.copyFrom(bytes("w"))).build();
        List<ProcessRangeResponse> responses = new ArrayList<>();
        ClientCalls.blockingServerStreamingCall(f.channel(), Tier2Protocol.PROCESS_RANGE,
                io.grpc.CallOptions.DEFAULT.withDeadlineAfter(10, SECONDS), request).forEachRemaining(responses::add);
        assertEquals(List.of("r:w"), seen);
        assertEquals(ProcessRangeResponse.MessageCase.COMPLETED, responses.getLast().getMessageCase());
    }

    @Test
    void updatesReachTheClientInOrderBeforeCompleted() throws Exception {
        JobWorker.WithContext worker = c -> {
            c.sendUpdate(bytes("25%"));
            c.sendUpdate(bytes("75%"));
        };
        Fixture f = serve(Tier2Server.builder().worker(worker));
        ProcessRangeRequest request = ProcessRangeRequest.newBuilder().setRequestId("r").setSegment(0).setStage(0)
                .setAttempt(1).build();
        Iterator<ProcessRangeResponse> it = ClientCalls.blockingServerStreamingCall(f.channel(),
                Tier2Protocol.PROCESS_RANGE, io.grpc.CallOptions.DEFAULT.withDeadlineAfter(10, SECONDS), request);
        List<String> seen = new ArrayList<>();
        it.forEachRemaining(r -> seen.add(switch (r.getMessageCase()) {
            case UPDATE -> "update " + r.getUpdate().getPayload().toStringUtf8();
            default -> r.getMessageCase().name();
        }));
        assertEquals(List.of("ADMITTED", "update 25%", "update 75%", "COMPLETED"), seen);
    }

    @Test
    void updateAfterTheJobEndedIsDroppedNotSent() throws Exception {
        List<JobContext> kept = new ArrayList<>();
        JobWorker.WithContext worker = kept::add;
        Fixture f = serve(Tier2Server.builder().worker(worker));
        try (Tier2Call call = f.client().dial(new Job("r", new JobKey(0, 0), 1))) {
            call.await();
        }
        await().atMost(10, SECONDS).until(() -> f.server().jobsHeld() == 0); // the job's thread has ended
        kept.getFirst().sendUpdate(bytes("late")); // must neither throw nor reach a closed stream
        try (Tier2Call call = f.client().dial(new Job("r", new JobKey(1, 0), 1))) {
            call.await(); // the server still serves
        }
    }

    @Test
    void writeOutputWithoutOutputsIsAFailureNamingTheFix() throws Exception {
        JobWorker.WithContext worker = c -> c.writeOutput(bytes("x"));
        Fixture f = serve(Tier2Server.builder().worker(worker));
        Tier2Exception e;
        try (Tier2Call call = f.client().dial(new Job("r", new JobKey(0, 0), 1))) {
            e = assertThrows(Tier2Exception.class, call::await);
        }
        assertEquals(Tier2Exception.Kind.RETRYABLE, e.kind());
        assertTrue(e.getMessage().contains("outputs"), e.getMessage());
    }

    @Test
    void fatalFromTheOutputsFailsTheJobFatally() throws Exception {
        JobOutputs refusing = (r, s, o) -> {
            throw Tier2Exception.fatal("request id '" + r + "' can not name a place", null);
        };
        JobWorker.WithContext worker = c -> c.writeOutput(bytes("x"));
        Fixture f = serve(Tier2Server.builder().worker(worker).outputs(refusing));
        Tier2Exception e;
        try (Tier2Call call = f.client().dial(new Job("r", new JobKey(0, 0), 1))) {
            e = assertThrows(Tier2Exception.class, call::await);
        }
        assertEquals(Tier2Exception.Kind.FATAL, e.kind());
    }

    @Test
    void contextWorkerRunOutsideAServerHasNoOutputs() {
        JobWorker.WithContext worker = c -> c.writeOutput(c.work());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> worker.run(new Job("r", new JobKey(0, 0), 1), bytes("w")));
        assertTrue(e.getMessage().contains("outputs"), e.getMessage());
    }

    @Test
    void awaitTerminationReturnsOnceACloseFromAnotherThreadHasDrained() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        JobWorker holding = (job, work) -> release.await();
        Fixture f = serve(Tier2Server.builder().worker(holding).drainGrace(Duration.ofSeconds(30)));
        Tier2Call call = f.client().dial(new Job("r", new JobKey(0, 0), 1));
        assertFalse(f.server().awaitTermination(Duration.ofMillis(300)), "terminated before any close");
        Thread closer = Thread.ofVirtual().start(f.server()::close);
        assertFalse(f.server().awaitTermination(300, java.util.concurrent.TimeUnit.MILLISECONDS),
                "terminated while a job was still draining");
        assertFalse(f.server().isTerminated());
        release.countDown();
        f.server().awaitTermination();
        assertTrue(f.server().isTerminated());
        call.await();
        call.close();
        closer.join(Duration.ofSeconds(10));
        assertFalse(closer.isAlive());
    }
}
