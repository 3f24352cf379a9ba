package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code orderly -o out.svg}, where {@code out.svg} is a symbolic link to a file that is not there yet (in a directory
 * that is), was refused before the run, exit 2, with {@code --output: cannot write .../out.svg: cannot be written}:
 * the check tried to create the link's own path, which exists as a link. The picture is written through the link
 * ({@code Files.writeString} follows it and creates the file), so the path can be written and is now taken.
 */
@Timeout(60)
class AnOutputThatIsALinkToAFileNotThereYetIsTakenTest {

    @Test
    void thePictureIsWrittenThroughTheLink(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("target.svg");
        Path link = Files.createSymbolicLink(dir.resolve("out.svg"), target);
        CliRun o = CliRun.of("--segments=4", "--tenants=2", "--workers=2", "--instances=1", "--slots=2",
                "--job-duration=100ms", "--client-time=0", "--time-scale=20", "--strategy=ordered", "-q",
                "-o", link.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(Files.isRegularFile(target), "the picture went through the link: " + o.out());
    }
}
