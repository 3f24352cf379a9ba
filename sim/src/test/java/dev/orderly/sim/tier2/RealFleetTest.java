package dev.orderly.sim.tier2;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.Orderly;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.sim.fleet.SimulatedWork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real processes on loopback: three {@code Tier2Main} processes with 2 slots each, one engine request of 60 segments
 * x 2 stages x 12 workers over {@link GrpcTier2Client}. It delivers every segment in order with every instance up,
 * with one killed ({@code kill -9}) mid-run, and with one drained by SIGTERM mid-run. No child outlives a test.
 */
@Timeout(120)
class RealFleetTest {

    private static final int SEGMENTS = 60;

    @TempDir
    Path dir;

    /** Plaintext unless a test says otherwise. */
    private FleetSecurity security = FleetSecurity.plaintext();

    private Tier2Processes startFleet() throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("--max-concurrent=2", "--outputs=" + dir,
                "--stages=2", "--job-duration=1s", "--time-scale=20", "--timeout-rate=0", "--retryable-rate=0",
                "--missing-output-rate=0", "--drain-grace=20s"));
        args.addAll(security.tier2Args());
        return Tier2Processes.start(3, args, dir, Duration.ofSeconds(60));
    }

    /** Runs the request; {@code midRun} is called once, on the client's thread, when segment 15 arrives. */
    private RequestResult runRequest(Tier2Processes fleet, String id, Consumer<Tier2Processes> midRun)
            throws Exception {
        AtomicLong expected = new AtomicLong();
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofMillis(20))
                .failureDelay(Duration.ofMillis(50)).build();
        try (GrpcTier2Client client = security.client(fleet.addresses()).build()) {
            Request request = Request.of(new RequestPlan(0, SEGMENTS, 2, 12), client,
                    SimulatedJobWorker.outputsOf(dir, id), (segment, output) -> {
                        assertEquals(expected.getAndIncrement(), segment, "segments out of order");
                        assertArrayEquals(SimulatedWork.output(id, segment), output);
                        if (segment == 15) {
                            midRun.accept(fleet);
                        }
                    }).withId(id);
            RequestResult result = Orderly.engine(config).run(request);
            assertEquals(SEGMENTS, expected.get());
            assertEquals(SEGMENTS, result.segmentsDelivered());
            return result;
        }
    }

    private static void assertNoChildLeft(Tier2Processes fleet) {
        fleet.close();
        assertFalse(fleet.anyAlive(), "a tier2 process outlived the test");
        assertTrue(ProcessHandle.current().children().noneMatch(ProcessHandle::isAlive),
                "a child process outlived the test");
    }

    @Test
    void requestDeliversInOrderOverThreeProcessesOverTlsWithAToken() throws Exception {
        security = FleetSecurity.tls(dir.resolve("tls")); // what ./orderly fleet uses by default
        Tier2Processes fleet = startFleet();
        try {
            RequestResult result = runRequest(fleet, "all-up", f -> { });
            assertEquals(0, result.failures());
        } finally {
            assertNoChildLeft(fleet);
        }
    }

    @Test
    void requestDeliversInOrderWhenOneProcessIsKilledMidRun() throws Exception {
        Tier2Processes fleet = startFleet();
        try {
            runRequest(fleet, "killed", f -> f.kill(0));
            assertFalse(fleet.processes().get(0).isAlive());
        } finally {
            assertNoChildLeft(fleet);
        }
    }

    @Test
    void requestDeliversInOrderWhenOneProcessDrainsOnSigterm() throws Exception {
        Tier2Processes fleet = startFleet();
        try {
            RequestResult result = runRequest(fleet, "drained", f -> f.terminate(1));
            await().atMost(30, SECONDS).until(() -> !fleet.processes().get(1).isAlive());
            // drained: the jobs it held finished within the grace period, none failed
            assertEquals(0, result.failures());
        } finally {
            assertNoChildLeft(fleet);
        }
    }
}
