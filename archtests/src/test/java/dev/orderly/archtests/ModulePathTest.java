package dev.orderly.archtests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.engine.Orderly;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code api} and {@code engine} are named modules ({@code dev.orderly.api}, {@code dev.orderly.engine}) that export
 * only their API packages. The project's own tests run on the class path, where a descriptor is ignored; this test is
 * the embedder on the module path: it compiles a small module that {@code requires dev.orderly.engine}, runs one
 * request with it in a JVM of its own (no {@code --enable-preview}, with a flight recording, so the engine's events in
 * a package it does not export are recorded too), and checks that the engine's internals do not compile from outside.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ModulePathTest {

    private static final String MODULE_INFO = """
            module embed {
                requires dev.orderly.engine;
            }
            """;

    /** One request of 30 segments x 2 stages, 4 workers, on 3 in-process slots that refuse beyond that. */
    private static final String MAIN = """
            package embed;

            import dev.orderly.api.*;
            import dev.orderly.engine.InMemoryOutputStore;
            import dev.orderly.engine.Orderly;
            import java.time.Duration;
            import java.util.ArrayList;
            import java.util.List;
            import java.util.concurrent.Semaphore;
            import java.util.concurrent.atomic.AtomicBoolean;

            public final class Main {
                public static void main(String[] args) throws Exception {
                    RequestPlan plan = new RequestPlan(0, 30, 2, 4);
                    InMemoryOutputStore store = new InMemoryOutputStore();
                    Semaphore slots = new Semaphore(3);
                    Tier2Client fleet = job -> {
                        if (!slots.tryAcquire()) {
                            throw Tier2Exception.refused("all slots are busy");
                        }
                        AtomicBoolean released = new AtomicBoolean();
                        return new Tier2Call() {
                            @Override
                            public void await() {
                                if (job.key().stage() == plan.lastStage()) {
                                    store.write(job.key().segment(), new byte[] {(byte) job.key().segment()});
                                }
                            }

                            @Override
                            public void close() {
                                if (released.compareAndSet(false, true)) {
                                    slots.release();
                                }
                            }
                        };
                    };
                    List<Long> read = new ArrayList<>();
                    Engine engine = Orderly.engine(EngineConfig.builder().refusedDelay(Duration.ofMillis(1)).build());
                    engine.run(Request.of(plan, fleet, store, (segment, output) -> read.add(segment)));
                    System.out.println("module " + Main.class.getModule().getName() + " read " + read);
                    System.out.println("engine in " + Orderly.class.getModule().getName());
                }
            }
            """;

    private Path dir;

    @BeforeEach
    void makeDir() throws IOException {
        dir = Files.createTempDirectory("orderly-module-path-");
    }

    @AfterEach
    void removeDir() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Test
    void anEmbedderOnTheModulePathRunsARequestAndRecordsTheEnginesEvents() throws Exception {
        String modulePath = modulePath();
        Path classes = compile(MAIN, modulePath);
        Path recording = dir.resolve("run.jfr");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java,
                "-XX:StartFlightRecording:filename=" + recording,
                "--module-path", classes + File.pathSeparator + modulePath,
                "--add-modules", "org.slf4j.nop",
                "-m", "embed/embed.Main")
                .redirectErrorStream(true);
        Process process = pb.start();
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Thread reader = Thread.ofVirtual().start(() -> {
                try {
                    process.getInputStream().transferTo(out);
                } catch (IOException e) {
                    // the process was killed: its output ends here
                }
            });
            assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the embedder did not exit within 2 minutes");
            reader.join(TimeUnit.SECONDS.toMillis(10));
            String text = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, process.exitValue(), text);
            List<Long> expected = new ArrayList<>();
            for (long s = 0; s < 30; s++) {
                expected.add(s);
            }
            assertTrue(text.contains("module embed read " + expected), text);
            assertTrue(text.contains("engine in dev.orderly.engine"), "the engine ran as a named module: " + text);
        } finally {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        long delivered = RecordingFile.readAllEvents(recording).stream()
                .filter(e -> e.getEventType().getName().equals("dev.orderly.SegmentDelivered"))
                .count();
        assertEquals(30, delivered, "one SegmentDelivered event per segment, from the engine's unexported package");
    }

    @Test
    void theEnginesInternalsAreNotVisibleFromAnotherModule() throws Exception {
        String reachIn = """
                package embed;

                public final class Main {
                    public static void main(String[] args) {
                        System.out.println(dev.orderly.engine.internal.OrderlyEngine.class);
                    }
                }
                """;
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        boolean compiled = javac(reachIn, modulePath(), errors);
        assertFalse(compiled, "a class outside the engine compiled against dev.orderly.engine.internal");
        assertTrue(errors.toString(StandardCharsets.UTF_8).contains("package dev.orderly.engine.internal is not visible"), errors.toString(StandardCharsets.UTF_8));
    }

    private Path compile(String main, String modulePath) throws IOException {
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        assertTrue(javac(main, modulePath, errors), errors.toString(StandardCharsets.UTF_8));
        return dir.resolve("classes");
    }

    private boolean javac(String main, String modulePath, ByteArrayOutputStream errors) throws IOException {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("embed"));
        Files.writeString(src.resolve("module-info.java"), MODULE_INFO);
        Files.writeString(src.resolve("embed").resolve("Main.java"), main);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int code = javac.run(null, null, errors,
                "--release", "21", "--module-path", modulePath, "-d", dir.resolve("classes").toString(),
                src.resolve("module-info.java").toString(), src.resolve("embed").resolve("Main.java").toString());
        return code == 0;
    }

    /** The api and engine as the build made them, SLF4J's api and its no-op binding: all named modules. */
    private static String modulePath() throws URISyntaxException {
        List<String> entries = new ArrayList<>();
        entries.add(location(Engine.class));
        entries.add(location(Orderly.class));
        entries.add(location(org.slf4j.Logger.class));
        entries.add(location(org.slf4j.nop.NOPServiceProvider.class));
        return String.join(File.pathSeparator, entries);
    }

    private static String location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
