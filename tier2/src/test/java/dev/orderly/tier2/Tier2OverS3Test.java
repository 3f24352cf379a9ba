package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.Orderly;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.s3.S3OutputStore;
import dev.orderly.s3.S3ProxyFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tier2 processes writing to S3 ({@code --outputs=s3://bucket/prefix --s3-endpoint=URL}, credentials from the
 * environment) against a real S3 API server, and a tier1 reading the same keys: a request delivers in order, and a
 * request killed midway and started again with resume dials only the segments whose output is missing.
 */
@Timeout(180)
class Tier2OverS3Test {

    private static final int SEGMENTS = 40;
    @TempDir
    static Path dir;
    private static S3ProxyFixture s3;
    private static List<Tier2Child> fleet = new ArrayList<>();

    @BeforeAll
    static void startS3AndFleet() throws Exception {
        s3 = S3ProxyFixture.start(dir.resolve("s3"));
        s3.createBucket("outputs");
        Map<String, String> env = Map.of("AWS_ACCESS_KEY_ID", S3ProxyFixture.IDENTITY,
                "AWS_SECRET_ACCESS_KEY", S3ProxyFixture.CREDENTIAL);
        for (int i = 0; i < 2; i++) {
            fleet.add(Tier2Child.start(dir, env, "--max-concurrent=3", "--outputs=s3://outputs/runs",
                    "--s3-endpoint=" + s3.endpoint(), "--worker=" + TestWorkers.Echo.class.getName()));
        }
    }

    @AfterAll
    static void stopFleetAndS3() throws Exception {
        try {
            for (Tier2Child c : fleet) {
                c.close();
            }
            assertTrue(ProcessHandle.current().children().noneMatch(ProcessHandle::isAlive),
                    "a tier2 process outlived the test");
        } finally {
            if (s3 != null) {
                s3.close();
            }
        }
    }

    private static byte[] output(String id, long segment) {
        return (id + "/" + segment).getBytes(StandardCharsets.UTF_8);
    }

    /** The store the tier2s write request {@code id} to: the key prefix {@code runs/<id>/}. */
    private static S3OutputStore storeOf(String id) {
        return S3OutputStore.builder().client(s3.client()).bucket("outputs").prefix("runs/" + id + "/").build();
    }

    private static GrpcTier2Client client(String id) {
        return GrpcTier2Client.builder().addresses(fleet.stream().map(Tier2Child::address).toList())
                .work(job -> output(id, job.key().segment())).build();
    }

    private static final EngineConfig FAST = EngineConfig.builder().refusedDelay(Duration.ofMillis(10))
            .failureDelay(Duration.ofMillis(20)).build();

    @Test
    void requestDeliversInOrderFromTheBucket() throws Exception {
        String id = "in-order";
        AtomicLong next = new AtomicLong();
        try (GrpcTier2Client client = client(id)) {
            RequestResult r = Orderly.engine(FAST).run(Request.of(new RequestPlan(0, SEGMENTS, 1, 6), client,
                    storeOf(id), (segment, out) -> {
                        assertEquals(next.getAndIncrement(), segment, "out of order");
                        assertArrayEquals(output(id, segment), out);
                    }).withId(id));
            assertEquals(SEGMENTS, r.segmentsDelivered());
        }
        assertTrue(storeOf(id).contains(SEGMENTS - 1));
        assertEquals("runs/in-order/segment-00000000000000000039.out", storeOf(id).keyOf(SEGMENTS - 1));
    }

    @Test
    void requestKilledMidwayAndStartedAgainDialsOnlyWhatIsMissing() throws Exception {
        String id = "resumed";
        try (GrpcTier2Client client = client(id)) {
            RequestFailedException killed = assertThrows(RequestFailedException.class, () ->
                    Orderly.engine(FAST).run(Request.of(new RequestPlan(0, SEGMENTS, 1, 6), client, storeOf(id),
                            (segment, out) -> {
                                if (segment == 15) {
                                    throw new IllegalStateException("client killed at segment 15");
                                }
                            }).withId(id)));
            assertTrue(String.valueOf(killed.getMessage()).contains("15")
                    || String.valueOf(killed.getCause()).contains("15"), String.valueOf(killed));

            Set<Long> stored = ConcurrentHashMap.newKeySet();
            for (long s = 0; s < SEGMENTS; s++) {
                if (storeOf(id).contains(s)) {
                    stored.add(s);
                }
            }
            assertTrue(stored.size() >= 15 && stored.size() < SEGMENTS, "stored after the kill: " + stored);

            Set<Long> dialed = ConcurrentHashMap.newKeySet();
            RequestListener dials = new RequestListener() {
                @Override
                public void onDial(Job job) {
                    dialed.add(job.key().segment());
                }
            };
            AtomicLong next = new AtomicLong();
            RequestResult again = Orderly.engine(FAST).run(Request.of(new RequestPlan(0, SEGMENTS, 1, 6), client,
                    storeOf(id), (segment, out) -> {
                        assertEquals(next.getAndIncrement(), segment, "out of order");
                        assertArrayEquals(output(id, segment), out);
                    }).withId(id).withListener(dials).withResume(true));
            assertEquals(SEGMENTS, again.segmentsDelivered());
            Set<Long> both = new java.util.HashSet<>(dialed);
            both.retainAll(stored);
            assertEquals(Set.of(), both, "segments dialed again although their output was in the bucket");
            assertEquals(SEGMENTS - stored.size(), dialed.size(), "dialed: " + dialed);
        }
    }

    @Test
    void unreachableBucketFailsTheStartWithOneLine() {
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=s3://no-such-bucket/x",
                "--s3-endpoint=" + s3.endpoint(), "--worker=" + TestWorkers.Echo.class.getName()},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(1, code, err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().contains("no-such-bucket"), err.toString());
    }
}
