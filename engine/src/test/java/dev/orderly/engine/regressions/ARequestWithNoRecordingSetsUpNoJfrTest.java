package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The first request of a JVM that never records paid for JFR's setup: making the request's JFR listener initialized
 * an event class, and the first event class initialized sets up JFR's whole metadata repository (about 150 ms on a
 * 2-vCPU EPYC), although with no recording no event can be enabled. Which classes a JVM has loaded can only be seen
 * from outside, and only in a JVM nothing else has used JFR in: a child JVM runs requests with class loading logged.
 * The event types are now registered when JFR is set up; so that a recording started late still gets them, a child
 * starts one after its first request, while its second runs.
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

    /**
     * The child for a recording started late: a request with none, then a recording started while a second request
     * runs (its first job held in its run until then), then a third request; prints how many events of each kind
     * each request recorded.
     */
    public static final class LateRecordingChild {
        public static void main(String[] args) throws Exception {
            Engine engine = Orderly.engine(EngineConfig.defaults());
            run(engine, "before", new CountDownLatch(0));
            Path file = Path.of(args[0]);
            try (Recording recording = new Recording()) {
                CountDownLatch started = new CountDownLatch(1);
                Thread running = Thread.ofPlatform().start(() -> {
                    try {
                        run(engine, "running", started);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                // The held job is admitted before the recording starts: the request is under way.
                if (!HELD.await(CHILD_SECONDS, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the running request's first job never ran");
                }
                for (String type : List.of("LaunchWait", "Dial", "JobRun", "SegmentDelivered")) {
                    recording.enable("dev.orderly." + type).withoutThreshold();
                }
                recording.start();
                started.countDown();
                running.join();
                run(engine, "after", new CountDownLatch(0));
                recording.stop();
                recording.dump(file);
            }
            Map<String, Long> counts = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().startsWith("dev.orderly."))
                    .collect(Collectors.groupingBy(e -> e.getString("requestId") + " "
                            + e.getEventType().getName(), TreeMap::new, Collectors.counting()));
            counts.forEach((key, count) -> System.out.println("events " + key + " " + count));
        }

        private static final CountDownLatch HELD = new CountDownLatch(1);

        private static void run(Engine engine, String id, CountDownLatch release) throws Exception {
            InMemoryOutputStore outputs = new InMemoryOutputStore();
            RequestPlan plan = new RequestPlan(0, 20, 1, 2);
            Tier2Client tier2 = job -> () -> {
                if (job.key().segment() == 0 && release.getCount() > 0) {
                    HELD.countDown();
                    release.await();
                }
                outputs.write(job.key().segment(), new byte[] {1});
            };
            RequestResult result = engine.run(new Request(id, plan, tier2, outputs, (segment, output) -> { },
                    RequestListener.NONE));
            System.out.println("delivered " + result.segmentsDelivered());
        }
    }

    @Test
    @Timeout(value = 2 * CHILD_SECONDS, unit = TimeUnit.SECONDS)
    void aRecordingStartedAfterTheFirstRequestGetsTheEventsOfTheRequestsRunningAndAfter(@TempDir Path dir)
            throws Exception {
        List<String> lines = runChild(dir, List.of(), LateRecordingChild.class, dir.resolve("late.jfr").toString());

        assertEquals(3, lines.stream().filter(line -> line.equals("delivered 20")).count(), () -> relevant(lines));
        Map<String, Long> events = lines.stream().filter(line -> line.startsWith("events ")).map(line -> line.split(" "))
                .collect(Collectors.toMap(f -> f[1] + " " + f[2], f -> Long.parseLong(f[3])));
        String all = events.toString();
        // 20 jobs, one dial each, nothing refused: every event of "after", none of "before".
        assertEquals(20L, events.get("after dev.orderly.Dial"), all);
        assertEquals(20L, events.get("after dev.orderly.JobRun"), all);
        assertEquals(20L, events.get("after dev.orderly.SegmentDelivered"), all);
        assertTrue(events.keySet().stream().noneMatch(key -> key.startsWith("before ")), all);
        // "running" loses only what began before the recording: the held job, and the jobs the look-ahead (4
        // segments on 2 workers) let run beside it; every segment from 5 on dials after the recording started. Its
        // deliveries all come after the held segment 0, but the first one's event began with the request.
        assertTrue(events.get("running dev.orderly.Dial") >= 15 && events.get("running dev.orderly.Dial") <= 19, all);
        assertEquals(events.get("running dev.orderly.Dial"), events.get("running dev.orderly.JobRun"), all);
        assertEquals(19L, events.get("running dev.orderly.SegmentDelivered"), all);
    }

    @Test
    @Timeout(value = 2 * CHILD_SECONDS, unit = TimeUnit.SECONDS)
    void bugTheFirstRequestOfAJvmThatNeverRecordsSetUpJfr(@TempDir Path dir) throws Exception {
        List<String> lines = runChild(dir, List.of(), Child.class);

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
                + dir.resolve("child.jfr")), Child.class);

        assertEquals(2, lines.stream().filter(line -> line.equals("delivered 40")).count(),
                () -> String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(line -> line.contains(JFR_METADATA)), () -> relevant(lines));
    }

    private static List<String> runChild(Path dir, List<String> jvmOptions, Class<?> main, String... args)
            throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Stream.of(Child.class, Orderly.class, Engine.class, LoggerFactory.class)
                .map(ARequestWithNoRecordingSetsUpNoJfrTest::where)
                .distinct()
                .collect(Collectors.joining(File.pathSeparator));
        Path output = dir.resolve("child.out");
        List<String> command = Stream.of(List.of(java, "-Xlog:class+load=info"), jvmOptions,
                List.of("-cp", classPath, main.getName()), List.of(args)).flatMap(List::stream).toList();
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
