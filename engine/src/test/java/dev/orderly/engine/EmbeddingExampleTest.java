package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The README's embedding example ({@link Embed}, kept identical to the README's code), run the way an embedder runs
 * it: a plain {@code java} on this JDK, no {@code --enable-preview}, no system property, with only the api, the
 * engine and SLF4J on the class path. The engine must pick the request scope built on plain JDK 21 APIs by itself.
 */
class EmbeddingExampleTest {

    private static final int CHILD_SECONDS = 60;

    @Test
    void theReadmeExampleIsTheCodeThisTestRuns() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int at = readme.indexOf("public class Embed {");
        assertTrue(at > 0, "README has no 'public class Embed'");
        int start = readme.lastIndexOf("```java\n", at) + "```java\n".length();
        int end = readme.indexOf("```", at);
        String source = Files.readString(Path.of("src/test/java/dev/orderly/engine/Embed.java"));
        String body = source.substring(source.indexOf("import "));
        assertEquals(body.strip(), readme.substring(start, end).strip(),
                "the README's example and Embed.java differ: change both");
    }

    @Test
    @Timeout(value = 2 * CHILD_SECONDS, unit = TimeUnit.SECONDS)
    void theReadmeExampleRunsWithPlainJavaAndNoPreviewFlag(@TempDir Path dir) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Stream.of(Embed.class, Orderly.class, Engine.class, LoggerFactory.class)
                .map(EmbeddingExampleTest::where)
                .distinct()
                .collect(Collectors.joining(File.pathSeparator));
        Path output = dir.resolve("child.out");
        Process child = new ProcessBuilder(java, "-Xlog:class+load=info", "-cp", classPath, Embed.class.getName())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        try {
            assertTrue(child.waitFor(CHILD_SECONDS, TimeUnit.SECONDS), "the example did not end within "
                    + CHILD_SECONDS + " s");
            List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
            assertEquals(0, child.exitValue(), () -> String.join("\n", lines));

            List<String> printed = lines.stream().filter(l -> !l.startsWith("[")).toList();
            List<String> expected = IntStream.range(0, 100).mapToObj(s -> "output of segment " + s).toList();
            assertEquals(expected, printed.subList(0, 100), () -> String.join("\n", lines));
            assertTrue(printed.get(100).contains("segmentsDelivered=100"), printed.get(100));

            List<String> loaded = lines.stream().filter(l -> l.contains("[class,load]")).toList();
            assertTrue(loaded.stream().anyMatch(l -> l.contains(" dev.orderly.engine.internal.ThreadsRequestScope ")),
                    "the plain JDK 21 scope was not loaded");
            assertFalse(loaded.stream().anyMatch(l -> l.contains("StructuredRequestScope")),
                    "the preview scope was loaded without --enable-preview");
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The jar or class directory {@code type} was loaded from, for a child JVM's class path. */
    static String where(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
