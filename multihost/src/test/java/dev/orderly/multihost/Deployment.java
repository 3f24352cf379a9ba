package dev.orderly.multihost;

import dev.orderly.api.OutputStore;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.grpc.Tier2Security;
import dev.orderly.s3.S3Clients;
import dev.orderly.s3.S3OutputStore;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the fleet is deployed, in one place: the command line of a tier2 host, of the tier1 host and of the delaying
 * proxy; where outputs go; how the tier1 reaches the fleet (target and security). Everything that would change when
 * the fleet moves to TLS, tokens or another store changes here and nowhere else.
 *
 * <p>gRPC over mutual TLS with the test's own CA (the server certificate names {@link Network#TIER2_NAME}, which is
 * what the tier1 dials, so host names are checked), and a bearer token on every call; outputs in S3 on the store host
 * (S3Proxy), request R's under {@code s3://orderly-mh/runs/R/}, signed with a key pair every process reads from the
 * AWS SDK's usual environment variables. Immutable.
 *
 * @param logs where every host's standard error goes
 * @param tls the CA, certificates and token of the fleet
 */
record Deployment(Path logs, TestCa tls) {

    /** The port every tier2 host serves on (each host has its own port space). */
    static final int TIER2_PORT = 7443;
    /** Segments, stages and workers of every run. */
    static final int SEGMENTS = 200;
    static final int STAGES = 2;
    static final int WORKERS = 24;
    /** Jobs each tier2 runs at once: three hosts hold exactly the request's workers. */
    static final int MAX_CONCURRENT = 8;

    /** The store host's S3 API, by the name every host's hosts file gives it. */
    static final String S3_ENDPOINT = "http://s3.orderly.test:9000";
    static final String BUCKET = "orderly-mh";
    static final String KEY_PREFIX = "runs";

    private static final String TIER2_MAIN = "dev.orderly.tier2.Tier2Main";
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
                "--outputs=s3://" + BUCKET + "/" + KEY_PREFIX,
                "--s3-endpoint=" + S3_ENDPOINT,
                "--stages=" + STAGES,
                // The simulator's own faults are off: the run's one fault is the one the test makes.
                "--timeout-rate=0", "--retryable-rate=0", "--missing-output-rate=0",
                "--job-duration=2s", "--job-spread=0.3", "--time-scale=10",
                "--drain-grace=2s",
                "--tls-cert=" + tls.serverCert(),
                "--tls-key=" + tls.serverKey(),
                "--client-ca=" + tls.caCert(),
                "--token-file=" + tls.tokenFile()));
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
                "--s3-endpoint=" + S3_ENDPOINT,
                "--ca=" + tls.caCert(),
                "--client-cert=" + tls.clientCert(),
                "--client-key=" + tls.clientKey(),
                "--token-file=" + tls.tokenFile()));
    }

    /** The command of the store host, keeping its objects under {@code dir}. */
    List<String> s3Host(Path dir) {
        return java(S3HostMain.class.getName(), List.of(
                "--endpoint=http://" + Network.S3.address() + ":9000", "--dir=" + dir, "--bucket=" + BUCKET));
    }

    /**
     * The environment of every host's process: the store's key pair, found by the AWS SDK's usual chain, and no
     * look-up of an instance metadata service (there is none: nothing may leave the test's network).
     */
    static Map<String, String> environment() {
        return Map.of("AWS_ACCESS_KEY_ID", "orderly-mh", "AWS_SECRET_ACCESS_KEY", "orderly-mh-secret",
                "AWS_REGION", "us-east-1", "AWS_EC2_METADATA_DISABLED", "true");
    }

    /** A proxy on {@code listen} that delays every byte to and from {@code target} by {@code delayMs}. */
    List<String> delayingProxy(String listen, String target, int delayMs) {
        return java(PROXY_MAIN, List.of("--listen=" + listen, "--target=" + target, "--delay-ms=" + delayMs));
    }

    /** The client the tier1 dials the fleet with, from its command line's options. */
    static GrpcTier2Client tier1Client(Map<String, String> options) {
        String token = Tier2Security.readTokens(Path.of(options.get("token-file"))).getFirst();
        return GrpcTier2Client.builder()
                .target(options.get("target"))
                .credentials(Tier2Security.clientCredentials(Path.of(options.get("ca")),
                        Path.of(options.get("client-cert")), Path.of(options.get("client-key"))))
                .bearerToken(() -> token)
                .build();
    }

    /** The store the tier1 reads request {@code request}'s outputs from. */
    static OutputStore tier1Store(Map<String, String> options) {
        return S3OutputStore.builder()
                .client(S3Clients.create(URI.create(options.get("s3-endpoint")), null))
                .bucket(BUCKET)
                .prefix(KEY_PREFIX + "/" + options.get("request") + "/")
                .build();
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
