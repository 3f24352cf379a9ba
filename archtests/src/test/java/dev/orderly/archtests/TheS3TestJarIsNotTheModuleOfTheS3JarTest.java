package dev.orderly.archtests;

import static dev.orderly.archtests.Poms.ROOT;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code orderly-s3}'s test jar ({@code S3ProxyFixture}, which the BOM manages and the guide to your own
 * tier2 tells users to take) said {@code Automatic-Module-Name: dev.orderly.s3}, the library's own module name
 * ({@code maven-jar-plugin}'s configuration applied to both of its goals). On the module path it passed for the
 * library: both jars in one directory (as {@code dependency:copy-dependencies} puts them) were "FindException: Two
 * versions of module dev.orderly.s3 found", and with the test jar first the module {@code dev.orderly.s3} was the
 * fixture's classes, without {@code S3OutputStore}. Read from the jars {@code mvn package} built.
 */
class TheS3TestJarIsNotTheModuleOfTheS3JarTest {

    @TempDir
    Path dir;

    @Test
    void theTestJarDoesNotNameItselfDevOrderlyS3() throws IOException {
        Path target = ROOT.resolve("s3/target");
        List<Path> jars;
        try (Stream<Path> files = Files.exists(target) ? Files.list(target) : Stream.empty()) {
            jars = files.filter(p -> p.getFileName().toString().matches("orderly-s3-[^-]+(-SNAPSHOT)?(-tests)?\\.jar"))
                    .toList();
        }
        assumeTrue(jars.size() == 2, "no s3/target/orderly-s3-*.jar and -tests.jar: package s3 first; found " + jars);
        Path tests = jars.stream().filter(p -> p.getFileName().toString().endsWith("-tests.jar")).findFirst()
                .orElseThrow();
        Path library = jars.stream().filter(p -> !p.equals(tests)).findFirst().orElseThrow();
        assertEquals(List.of("dev.orderly.s3"), names(ModuleFinder.of(library)), library.toString());
        assertNotEquals(List.of("dev.orderly.s3"), names(ModuleFinder.of(tests)),
                tests + " on the module path is the library's module");
        Files.copy(library, dir.resolve(library.getFileName()));
        Files.copy(tests, dir.resolve(tests.getFileName()));
        assertDoesNotThrow(() -> ModuleFinder.of(dir).findAll(), "both jars in one directory of the module path");
    }

    private static List<String> names(ModuleFinder finder) {
        return finder.findAll().stream().map(ModuleReference::descriptor).map(d -> d.name()).toList();
    }
}
