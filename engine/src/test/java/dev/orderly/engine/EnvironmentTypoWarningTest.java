package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.engine.testlog.LogCapture;
import java.io.File;
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
 * A mistyped variable ({@code SUBSTREAMS_WORKER_MAXRETRIES}) was silently ignored by {@link Orderly#engine()}: the
 * embedder lost the setting and was never told. The environment can not be changed inside a running JVM, so a child
 * JVM gets the typo and reports what the engine logged.
 */
class EnvironmentTypoWarningTest {

    private static final int CHILD_SECONDS = 60;

    /** The child: makes an engine from its environment and prints every log event, one a line. */
    public static final class Child {
        public static void main(String[] args) {
            LogCapture.start();
            Orderly.engine();
            for (LogCapture.Event e : LogCapture.stop()) {
                System.out.println(e.level() + " " + e.logger() + " " + e.message());
            }
        }
    }

    @Test
    @Timeout(value = 2 * CHILD_SECONDS, unit = TimeUnit.SECONDS)
    void bugAMistypedEnvironmentVariableWasSilentlyIgnored(@TempDir Path dir) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Stream.of(Child.class, Orderly.class, Engine.class, LoggerFactory.class)
                .map(EmbeddingExampleTest::where)
                .distinct()
                .collect(Collectors.joining(File.pathSeparator));
        Path output = dir.resolve("child.out");
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", classPath, Child.class.getName())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().put("SUBSTREAMS_WORKER_MAXRETRIES", "3");
        Process child = builder.start();
        try {
            assertTrue(child.waitFor(CHILD_SECONDS, TimeUnit.SECONDS), "the child did not end within "
                    + CHILD_SECONDS + " s");
            List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
            assertEquals(0, child.exitValue(), () -> String.join("\n", lines));
            assertTrue(lines.contains("WARN dev.orderly.engine.Orderly environment: SUBSTREAMS_WORKER_MAXRETRIES is not"
                    + " a variable Orderly reads; did you mean SUBSTREAMS_WORKER_MAX_RETRIES?"),
                    () -> String.join("\n", lines));
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
