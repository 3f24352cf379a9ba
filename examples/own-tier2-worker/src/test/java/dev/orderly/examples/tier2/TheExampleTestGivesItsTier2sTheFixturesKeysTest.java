package dev.orderly.examples.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The guide's "as deployed" test ({@link UppercaseWorkerTest}), copied into a project of one's own, passes there: its
 * {@code Tier2Main} processes must get the keys of the {@code S3ProxyFixture} they write to from the test itself, not
 * from this module's build (surefire's {@code environmentVariables}), which the guide does not show and an IDE or
 * another build does not have. The test is run in a JVM whose environment has no AWS keys (and no AWS profile files),
 * as a copy of it runs.
 */
@Timeout(300)
class TheExampleTestGivesItsTier2sTheFixturesKeysTest {

    private static final String TEST = UppercaseWorkerTest.class.getName()
            + "#threeTier2ProcessesWithOutputsInS3DeliverARequestInOrder";

    @Test
    void theAsDeployedTestPassesWithoutAwsKeysInItsEnvironment(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("child.out");
        ProcessBuilder pb = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
                "--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), RunOne.class.getName(), TEST)
                .redirectErrorStream(true).redirectOutput(out.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("AWS_"));
        env.put("AWS_EC2_METADATA_DISABLED", "true");                       // loopback only
        env.put("AWS_SHARED_CREDENTIALS_FILE", dir.resolve("none").toString()); // no keys of the developer's own
        env.put("AWS_CONFIG_FILE", dir.resolve("none").toString());
        Process child = pb.start();
        try {
            assertTrue(child.waitFor(240, TimeUnit.SECONDS), "the copied test did not end in 240 s");
            String said = Files.readString(out, StandardCharsets.UTF_8);
            assertEquals(0, child.exitValue(), "the copied test, run without the build's AWS keys:\n" + tail(said));
        } finally {
            child.descendants().forEach(ProcessHandle::destroyForcibly);
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static String tail(String text) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 12), lines.size()));
    }

    /** Runs one test method with the JUnit Platform; exit 0 if it ran and passed. */
    public static final class RunOne {
        public static void main(String[] args) {
            LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                    .selectors(DiscoverySelectors.selectMethod(args[0])).build();
            SummaryGeneratingListener listener = new SummaryGeneratingListener();
            LauncherFactory.create().execute(request, listener);
            TestExecutionSummary summary = listener.getSummary();
            PrintWriter w = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
            summary.printFailuresTo(w, 3);
            w.println("succeeded " + summary.getTestsSucceededCount() + ", failed " + summary.getTotalFailureCount());
            w.flush();
            System.exit(summary.getTestsSucceededCount() == 1 && summary.getTotalFailureCount() == 0 ? 0 : 1);
        }
    }
}
