package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Regression: with {@code --format=json}, a picture whose write failed at the end of the run (the disk full, say) was
 * still named by the report's {@code picture}, which the guide calls "the picture ... written": a script that read
 * it opened a file that was not there, or an older picture of another run. The report now says {@code null}, as
 * {@code flightRecording} does for a recording not written. {@code /dev/full} passes the check before the run (it
 * can be opened for writing) and fails every write with "No space left on device".
 */
@Timeout(60)
@EnabledOnOs(OS.LINUX)
class TheJsonNamesNoPictureThatWasNotWrittenTest {

    @Test
    void aPictureThatCouldNotBeWrittenIsNotNamed() {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(full), "no writable /dev/full here");
        CliRun o = CliRun.of("--tenants=1", "--segments=3", "--stages=1", "--time-scale=100", "--strategy=ordered",
                "-o", full.toString(), "--format=json");
        assertEquals(1, o.code(), o.err());
        assertTrue(o.err().contains("cannot write the picture to /dev/full"), o.err());
        assertFalse(o.out().contains("\"picture\": \"/dev/full\""),
                "the JSON names a picture that was not written:\n" + o.out());
        assertTrue(o.out().contains("\"picture\": null"), o.out());
    }

    @Test
    void aPictureWrittenIsStillNamed(@org.junit.jupiter.api.io.TempDir Path dir) {
        Path file = dir.resolve("t.svg").toAbsolutePath().normalize();
        CliRun o = CliRun.of("--tenants=1", "--segments=3", "--stages=1", "--time-scale=100", "--strategy=ordered",
                "-o", file.toString(), "--format=json");
        assertEquals(0, o.code(), o.err());
        assertTrue(Files.isRegularFile(file));
        assertTrue(o.out().contains("\"picture\": \"" + file.toString().replace("\\", "\\\\") + "\""), o.out());
    }
}
