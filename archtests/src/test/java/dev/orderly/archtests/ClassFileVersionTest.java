package dev.orderly.archtests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.engine.Orderly;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Embedders run {@code api} and {@code engine} on any JDK from 21 on, with no {@code --enable-preview}: every class
 * file of both is release 21 (major version 65, minor 0), except the one request scope built on
 * {@code StructuredTaskScope}, which is release 25 with preview features (69, minor 0xFFFF) and is loaded only where
 * the JVM accepts it. No JDK 21 is at hand where this is built, so this check of the class files, as the build made
 * them, stands in for running on one.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class ClassFileVersionTest {

    private static final int JAVA_21 = 65;
    private static final int JAVA_25 = 69;
    private static final int PREVIEW = 0xFFFF;
    private static final String THE_PREVIEW_CLASS = "dev/orderly/engine/internal/StructuredRequestScope.class";
    /** The module descriptors are compiled apart at release 11, so that any tool from Java 11 on reads them. */
    private static final int JAVA_11 = 55;
    private static final String DESCRIPTOR = "module-info.class";

    @Test
    void everyApiClassIsJava21WithoutPreview() throws Exception {
        Map<String, String> versions = versions(Engine.class);
        assertTrue(versions.size() > 10, "api classes found: " + versions.keySet());
        assertEquals(JAVA_11 + ".0", versions.remove(DESCRIPTOR), "the api's module descriptor");
        assertEquals(Map.of(), notJava21(versions));
    }

    @Test
    void everyEngineClassButTheStructuredScopeIsJava21WithoutPreview() throws Exception {
        Map<String, String> versions = versions(Orderly.class);
        assertTrue(versions.size() > 10, "engine classes found: " + versions.keySet());
        assertEquals(JAVA_25 + "." + PREVIEW, versions.remove(THE_PREVIEW_CLASS),
                "the StructuredTaskScope request scope must be there, compiled for 25 with preview");
        assertEquals(JAVA_11 + ".0", versions.remove(DESCRIPTOR), "the engine's module descriptor");
        assertEquals(Map.of(), notJava21(versions));
    }

    private static Map<String, String> notJava21(Map<String, String> versions) {
        Map<String, String> wrong = new TreeMap<>(versions);
        wrong.values().removeIf(v -> v.equals(JAVA_21 + ".0"));
        return wrong;
    }

    /** Class file name -> "major.minor" for every class of the jar or directory {@code anyClass} was loaded from. */
    private static Map<String, String> versions(Class<?> anyClass) throws IOException, URISyntaxException {
        Path where = Path.of(anyClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, String> versions = new TreeMap<>();
        if (Files.isDirectory(where)) {
            List<Path> classes = new ArrayList<>();
            try (Stream<Path> files = Files.walk(where)) {
                files.filter(p -> p.toString().endsWith(".class")).forEach(classes::add);
            }
            for (Path file : classes) {
                try (InputStream in = Files.newInputStream(file)) {
                    versions.put(where.relativize(file).toString().replace('\\', '/'), version(in));
                }
            }
        } else {
            try (JarFile jar = new JarFile(where.toFile())) {
                for (JarEntry entry : jar.stream().filter(e -> e.getName().endsWith(".class")).toList()) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        versions.put(entry.getName(), version(in));
                    }
                }
            }
        }
        return versions;
    }

    private static String version(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        if (data.readInt() != 0xCAFEBABE) {
            return "not a class file";
        }
        int minor = data.readUnsignedShort();
        int major = data.readUnsignedShort();
        return major + "." + minor;
    }
}
