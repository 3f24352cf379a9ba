package dev.orderly.sim.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Writes a rendered SVG document to a file, creating its directory if needed. */
final class SvgFile {

    private SvgFile() {
    }

    /** How many times a write that lost its directory to another command's check is tried. */
    private static final int ATTEMPTS = 5;

    static void write(Path file, String svg) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        // Another command started in the same directory checks its own picture there: its check makes the missing
        // directories and removes them again, so a directory this write made or found can be gone (or going) before
        // the file is in it. A few tries, as the check itself makes, not a run's picture lost.
        for (int attempt = 1; ; attempt++) {
            try {
                if (dir != null) {
                    Files.createDirectories(dir);
                }
                Files.writeString(file, svg, StandardCharsets.UTF_8);
                return;
            } catch (NoSuchFileException | FileAlreadyExistsException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
