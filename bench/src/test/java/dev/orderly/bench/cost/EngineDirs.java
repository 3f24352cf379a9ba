package dev.orderly.bench.cost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Directories {@link EngineAB} takes for an engine's classes, for tests of its options. */
final class EngineDirs {

    private EngineDirs() {
    }

    /** A directory EngineAB takes for an engine's classes (it looks for dev/orderly/engine in it). */
    static String engineDir(Path dir, String name) throws IOException {
        Path classes = dir.resolve(name);
        Files.createDirectories(classes.resolve("dev/orderly/engine"));
        return classes.toString();
    }
}
