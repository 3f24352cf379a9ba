package dev.orderly.sim.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a rendered SVG document to a file, creating its directory if needed. */
final class SvgFile {

    private SvgFile() {
    }

    static void write(Path file, String svg) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Files.writeString(file, svg, StandardCharsets.UTF_8);
    }
}
