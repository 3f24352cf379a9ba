package dev.orderly.multihost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * One tier1, three tier2 and one store host, each its own network namespace on one bridge, and the faults a fleet
 * of machines meets: a host killed, frozen, cut off, restarted, on a slow link. Each run starts a fresh fleet and
 * one request of 200 segments x 2 stages on 24 workers, dialed by one DNS name; the fault comes once the client has
 * read {@link #FAULT_AFTER} segments. Every run must deliver every segment exactly once, in order, with the right
 * bytes, and dial nothing after the request's end; it prints how long the client waited from the fault to its next
 * segment.
 *
 * <p>Needs root and iproute2; elsewhere it is skipped, saying why. Whatever happens, the namespaces, their files and
 * their processes are removed: after each run (the fleet), after the class (the network), from a shutdown hook
 * (Ctrl-C), and before the next run starts (a run killed with SIGKILL).
 */
@Timeout(value = 100, unit = TimeUnit.SECONDS)
class MultiHostFleetTest {

    /** The fault comes once the client has read this many segments: well into the run, far from its end. */
    private static final int FAULT_AFTER = 40;
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(80);

    /** Outputs and every host's log; kept when a run fails, so that its logs can be read. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static Network network;
    private static TestCa tls;
    private static HostProcess s3;
    private static Thread cleanupOnExit;

    private Fleet fleet;
    private Deployment deployment;
    private String requestId;

    @BeforeAll
    static void buildNetwork() throws IOException, InterruptedException {
        Optional<String> why = Network.whyUnavailable();
        if (why.isPresent()) {
            System.out.println("[multihost] skipped: " + why.get());
        }
        assumeTrue(why.isEmpty(), () -> "multi-host fleet test skipped: " + why.orElseThrow());
        cleanupOnExit = Thread.ofPlatform().name("multihost-cleanup").unstarted(() -> {
            try {
                Network.removeLeftovers();
            } catch (IOException e) {
                System.err.println("[multihost] cleanup at exit failed: " + e.getMessage());
            }
        });
        Runtime.getRuntime().addShutdownHook(cleanupOnExit);
        tls = TestCa.make(dir.resolve("tls"));
        network = Network.create();
        Path logs = Files.createDirectories(dir.resolve("logs"));
        s3 = HostProcess.start("s3", Network.S3.namespace(), new Deployment(logs, tls).s3Host(dir.resolve("s3")),
                Deployment.environment(), logs);
        s3.awaitLine(l -> l.startsWith(Fleet.READY), Fleet.START_TIMEOUT, "'" + Fleet.READY + "...'");
    }

    @AfterAll
    static void removeNetwork() throws IOException, InterruptedException {
        if (network == null) {
            return;
        }
        if (s3 != null) {
            s3.close();
        }
        network.close();
        Runtime.getRuntime().removeShutdownHook(cleanupOnExit);
        assertEquals(List.of(), Network.namespaces(), "namespaces left after the test");
    }

    @BeforeEach
    void name(TestInfo info) throws IOException {
        requestId = "mh-" + info.getTestMethod().orElseThrow().getName();
        Path logs = Files.createDirectories(dir.resolve(requestId).resolve("logs"));
        deployment = new Deployment(logs, tls);
    }

    @AfterEach
    void stopFleet() throws IOException, InterruptedException {
        if (fleet != null) {
            fleet.close();
            fleet = null;
        }
        for (Network.Host h : Network.hosts()) {
            List<Long> expected = h.equals(Network.S3) ? List.of(s3.pid()) : List.of();
            assertEquals(expected, Network.pidsIn(h.namespace()), "processes left on " + h.namespace());
        }
    }

    @Test
    void allUp() throws Exception {
        run(-1, null);
    }

    @Test
    void oneTier2KilledMidRun() throws Exception {
        run(-1, f -> f.tier2(0).kill());
    }

    @Test
    void oneTier2FrozenFor20sThenContinued() throws Exception {
        run(-1, f -> {
            f.tier2(1).freeze();
            hold(Duration.ofSeconds(20));
            f.tier2(1).thaw();
        });
    }

    @Test
    void oneHostsLinkCutFor10sThenRestored() throws Exception {
        run(-1, f -> {
            f.network().cut(Network.TIER2.get(2));
            hold(Duration.ofSeconds(10));
            f.network().restore(Network.TIER2.get(2));
        });
    }

    @Test
    void oneTier2RestartedOnTheSameAddress() throws Exception {
        run(-1, f -> f.restart(0));
    }

    @Test
    void oneLinkSlowed50msEachWay() throws Exception {
        run(1, null);
    }

    /** A fault: what the test does to the fleet once the client is well into the run. */
    @FunctionalInterface
    private interface Fault {
        void inject(Fleet fleet) throws Exception;
    }

    /**
     * Starts a fresh fleet (host {@code slowHost} behind a 50 ms delaying proxy, or none if -1), runs the request,
     * injects {@code fault} (none if null) once {@link #FAULT_AFTER} segments are in, checks and prints the run.
     */
    private void run(int slowHost, Fault fault) throws Exception {
        long begin = System.nanoTime();
        fleet = Fleet.start(network, deployment, slowHost, 50);
        long start = System.nanoTime();
        HostProcess tier1 = fleet.startTier1(requestId);
        long faultAt = -1;
        if (fault != null) {
            String mark = "delivered " + (FAULT_AFTER - 1) + " ";
            tier1.awaitLine(l -> l.startsWith(mark), RUN_TIMEOUT, "segment " + (FAULT_AFTER - 1));
            faultAt = System.nanoTime();
            fault.inject(fleet);
        }
        int exit = tier1.awaitExit(RUN_TIMEOUT);
        RunReport report = RunReport.check(requestId, requestId, tier1.lines(), start, faultAt);
        assertEquals(0, exit, requestId + ": tier1's exit code (see " + tier1.log() + ")");
        System.out.println(report.summary() + "; whole run with fleet start "
                + (System.nanoTime() - begin) / 1_000_000 + " ms");
    }

    /** Keeps a fault in place for {@code d}: the fault's length, not a wait for a condition. */
    private static void hold(Duration d) throws InterruptedException {
        Thread.sleep(d);
    }
}
