package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The first request of a JVM that never records paid for JFR's setup: making the request's JFR listener initialized
 * an event class, and the first event class initialized sets up JFR's whole metadata repository (about 150 ms on a
 * 2-vCPU EPYC), although with no recording no event can be enabled. Which classes a JVM has loaded can only be seen
 * from outside, and only in a JVM nothing else has used JFR in: a child JVM runs requests with class loading logged.
 */
class ARequestWithNoRecordingSetsUpNoJfrTest {

    private static final int CHILD_SECONDS = 60;
    /** Loaded when the first event class is initialized (its registration), and not before. */
    private static final String JFR_METADATA = "jdk.jfr.internal.MetadataRepository";

    /** The child: runs two requests of instant jobs, every event of the listener's kinds on the way, and says so. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            Engine engine = Orderly.engine(EngineConfig.defaults());
            for (int i = 0; i < 2; i++) {
                InMemoryOutputStore outputs = new InMemoryOutputStore();
                RequestPlan plan = new RequestPlan(0, 40, 2, 4);
                Tier2Client tier2 = job -> () -> {
                    if (job.key().stage() == plan.lastStage()) {
                        outputs.write(job.key().segment(), new byte[] {1});
                    }
                };
                RequestResult result = engine.run(Request.of(plan, tier2, outputs, (segment, output) -> { }));
                System.out.println("delivered " + result.segmentsDelivered());
            }
        }
    }

    @Test
    @Timeout(value = 2 * CHILD_SECONDS, unit = TimeUnit.SECONDS)
    void bugTheFirstRequestOfAJvmThatNeverRecordsSetUpJfr(@TempDir Path dir) throws Exception {
        List<String> lines = runChild(dir, List.of());

        assertEquals(2, lines.stream().filter(line -> line.equals("delivered 40")).count(),
                () -> "both requests delivered every segment:\n" + String.join("\n", lines));
        assertTrue(lines.stream().noneMatch(line -> line.contains(JFR_METADATA)),
                () -> JFR_METADATA + " was loaded in a JVM that never recorded:\n" + relevant(lines));
    }

    @Test
    @Timeout(value = 2 * CHILD_SECONDS, unit = TimeUnit.SECONDS)
    void aJvmStartedWithARecordingSetsUpJfrAsBefore(@TempDir Path dir) throws Exception {
        // The control: the log line the test above looks for is there when JFR is in use.
        List<String> lines = runChild(dir, List.of("-XX:StartFlightRecording:filename="
                + dir.resolve("child.jfr")));

        assertEquals(2, lines.stream().filter(line -> line.equals("delivered 40")).count(),
                () -> String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(line -> line.contains(JFR_METADATA)), () -> relevant(lines));
    }

    private static List<String> runChild(Path dir, List<String> jvmOptions) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Stream.of(Child.class, Orderly.class, Engine.class, LoggerFactory.class)
                .map(ARequestWithNoRecordingSetsUpNoJfrTest::where)
                .distinct()
                .collect(Collectors.joining(File.pathSeparator));
        Path output = dir.resolve("child.out");
        List<String> command = Stream.of(List.of(java, "-Xlog:class+load=info"), jvmOptions,
                List.of("-cp", classPath, Child.class.getName())).flatMap(List::stream).toList();
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            assertTrue(child.waitFor(CHILD_SECONDS, TimeUnit.SECONDS), "the child did not end within "
                    + CHILD_SECONDS + " s");
            List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
            assertEquals(0, child.exitValue(), () -> relevant(lines));
            return lines;
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The child's own lines and the JFR classes it loaded, not the thousands of other classes. */
    private static String relevant(List<String> lines) {
        return lines.stream().filter(line -> !line.contains("[class,load]") || line.contains("jfr"))
                .collect(Collectors.joining("\n"));
    }

    private static String where(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
