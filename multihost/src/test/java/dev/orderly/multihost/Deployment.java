package dev.orderly.multihost;

import dev.orderly.api.OutputStore;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.sim.tier2.SimulatedJobWorker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the fleet is deployed, in one place: the command line of a tier2 host, of the tier1 host and of the delaying
 * proxy; where outputs go; how the tier1 reaches the fleet (target and security). Everything that would change when
 * the fleet moves to TLS, tokens or another store changes here and nowhere else.
 *
 * <p>Today: plaintext gRPC, outputs in a directory both sides reach (the namespaces share the machine's file system,
 * as machines would share an object store). Immutable.
 *
 * @param outputs the directory the tier2 hosts write outputs under and the tier1 reads them from
 * @param logs where every host's standard error goes
 */
record Deployment(Path outputs, Path logs) {

    /** The port every tier2 host serves on (each host has its own port space). */
    static final int TIER2_PORT = 7443;
    /** Segments, stages and workers of every run. */
    static final int SEGMENTS = 200;
    static final int STAGES = 2;
    static final int WORKERS = 24;
    /** Jobs each tier2 runs at once: three hosts hold exactly the request's workers. */
    static final int MAX_CONCURRENT = 8;

    private static final String TIER2_MAIN = "dev.orderly.sim.cli.Tier2Main";
    private static final String PROXY_MAIN = "dev.orderly.testing.net.TcpProxy";

    /** The gRPC target the tier1 dials: one name, every tier2 host. */
    static String target() {
        return "dns:///" + Network.TIER2_NAME + ":" + TIER2_PORT;
    }

    /** The command of a tier2 host serving on {@code host:port}. */
    List<String> tier2(String host, int port) {
        return java(TIER2_MAIN, List.of(
                "--host=" + host,
                "--port=" + port,
                "--max-concurrent=" + MAX_CONCURRENT,
                "--outputs=" + outputs,
                "--stages=" + STAGES,
                // The simulator's own faults are off: the run's one fault is the one the test makes.
                "--timeout-rate=0", "--retryable-rate=0", "--missing-output-rate=0",
                "--job-duration=2s", "--job-spread=0.3", "--time-scale=10",
                "--drain-grace=2s"));
    }

    /** The command of the tier1 host running request {@code requestId}. */
    List<String> tier1(String requestId) {
        return java(Tier1Main.class.getName(), List.of(
                "--target=" + target(),
                "--request=" + requestId,
                "--segments=" + SEGMENTS,
                "--stages=" + STAGES,
                "--workers=" + WORKERS,
                // Shorter than the 5 s default so that the suite stays short; a killed host's jobs redial after it.
                "--failure-delay-ms=1000",
                "--outputs=" + outputs));
    }

    /** A proxy on {@code listen} that delays every byte to and from {@code target} by {@code delayMs}. */
    List<String> delayingProxy(String listen, String target, int delayMs) {
        return java(PROXY_MAIN, List.of("--listen=" + listen, "--target=" + target, "--delay-ms=" + delayMs));
    }

    /** The client the tier1 dials the fleet with, from its command line's options. */
    static GrpcTier2Client tier1Client(Map<String, String> options) {
        return GrpcTier2Client.builder().target(options.get("target")).build();
    }

    /** The store the tier1 reads request {@code request}'s outputs from. */
    static OutputStore tier1Store(Map<String, String> options) {
        return SimulatedJobWorker.outputsOf(Path.of(options.get("outputs")), options.get("request"));
    }

    /** The output the tier2's worker writes for {@code segment} of {@code requestId}: what the tier1 must get. */
    static byte[] expectedOutput(String requestId, long segment) {
        return dev.orderly.sim.fleet.SimulatedWork.output(requestId, segment);
    }

    private static List<String> java(String mainClass, List<String> args) {
        List<String> c = new ArrayList<>();
        c.add(ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        c.add("--enable-preview");
        c.add("--enable-native-access=ALL-UNNAMED"); // Netty loads its native transport
        c.add("-Xmx192m");
        c.add("-XX:+UseSerialGC"); // six JVMs share two cores: no parallel collector threads each
        c.add("-XX:TieredStopAtLevel=1"); // short-lived: start fast rather than peak
        c.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        c.add("-cp");
        c.add(System.getProperty("java.class.path"));
        c.add(mainClass);
        c.addAll(args);
        return c;
    }
}
