package dev.orderly.archtests;

import static dev.orderly.archtests.Poms.ROOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code java -p orderly-tier2-VERSION-all.jar -m dev.orderly.tier2/dev.orderly.tier2.Tier2Main
 * --version} printed "orderly tier2 (development build)": on the module path the JDK defines the package with no
 * manifest attributes, so its {@code Implementation-Version} read as null, where {@code -cp} printed the version. Both
 * print the version the jar's manifest gives now. Runs the jar {@code mvn package} built.
 */
@Timeout(120)
class TheRunnableTier2JarOnTheModulePathPrintsItsVersionTest {

    @Test
    void versionOnTheModulePathIsTheJarsVersion() throws Exception {
        Path target = ROOT.resolve("tier2/target");
        List<Path> jars;
        try (Stream<Path> files = Files.exists(target) ? Files.list(target) : Stream.empty()) {
            jars = files.filter(p -> p.getFileName().toString().matches("orderly-tier2-.*-all\\.jar")).toList();
        }
        assumeTrue(!jars.isEmpty(), "no tier2/target/orderly-tier2-*-all.jar: package tier2 first");
        String java = ProcessHandle.current().info().command().orElse("java");
        for (Path jar : jars) {
            String version;
            try (JarFile file = new JarFile(jar.toFile())) {
                version = file.getManifest().getMainAttributes().getValue("Implementation-Version");
            }
            assertNotNull(version, jar + " has no Implementation-Version");
            Process p = new ProcessBuilder(java, "-p", jar.toString(), "-m",
                    "dev.orderly.tier2/dev.orderly.tier2.Tier2Main", "--version").redirectErrorStream(true).start();
            try {
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "--version did not end within 60 s");
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                assertEquals("orderly tier2 " + version, out, jar + " on the module path");
                assertEquals(0, p.exitValue(), out);
            } finally {
                p.destroyForcibly();
            }
        }
    }
}
