package dev.orderly.archtests;

import static dev.orderly.archtests.Poms.ROOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runnable {@code orderly-tier2-VERSION-all.jar} says {@code Automatic-Module-Name: dev.orderly.tier2}, and that
 * is the module it must be on the module path. A {@code module-info.class} of one of the jars shaded into it (under
 * {@code META-INF/versions/N/} of a multi-release jar) would make the whole jar that module instead, and
 * {@code java -p orderly-tier2-all.jar -m dev.orderly.tier2/dev.orderly.tier2.Tier2Main} would find no such module.
 * Read from the jar {@code mvn package} built (the reactor packages {@code tier2} before this module's tests).
 */
class TheRunnableTier2JarIsTheModuleItNamesTest {

    @Test
    void theAllJarIsTheModuleDevOrderlyTier2() throws IOException {
        Path target = ROOT.resolve("tier2/target");
        List<Path> jars;
        try (Stream<Path> files = Files.exists(target) ? Files.list(target) : Stream.empty()) {
            jars = files.filter(p -> p.getFileName().toString().matches("orderly-tier2-.*-all\\.jar")).toList();
        }
        assumeTrue(!jars.isEmpty(), "no tier2/target/orderly-tier2-*-all.jar: package tier2 first");
        for (Path jar : jars) {
            List<String> names = ModuleFinder.of(jar).findAll().stream()
                    .map(ModuleReference::descriptor).map(d -> d.name()).toList();
            assertEquals(List.of("dev.orderly.tier2"), names, jar + " on the module path is the module(s)");
        }
    }
}
