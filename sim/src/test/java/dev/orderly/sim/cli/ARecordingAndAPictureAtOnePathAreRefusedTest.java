package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --jfr=FILE} and {@code -o FILE} naming one file: the recording was written there when the runs ended, then
 * the picture over it, and the command printed both {@code flight recording: FILE} and {@code picture: FILE}, exit 0,
 * with no recording left. The pair is now a bad option, exit 2, before anything runs.
 */
@Timeout(60)
class ARecordingAndAPictureAtOnePathAreRefusedTest {

    @TempDir
    Path dir;

    private static CliRun run(String output, String jfr) {
        return CliRun.of("--tenants=1", "--segments=3", "--stages=1", "--time-scale=100", "--strategy=ordered", "-q",
                "-o", output, "--jfr=" + jfr);
    }

    private static void assertRefused(CliRun o) {
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals(1, o.line().lines().count(), o.err());
        assertTrue(o.line().contains("--jfr") && o.line().contains("--output"), o.line());
        assertFalse(o.line().contains("java.") || o.line().contains("Exception"), o.line());
    }

    @Test
    void theSameFileForBothIsABadOption() {
        Path file = dir.resolve("run.out");
        assertRefused(run(file.toString(), file.toString()));
        assertFalse(Files.exists(file), "the check left nothing behind");
    }

    @Test
    void theSameFileWrittenTwoWaysIsABadOption() {
        Path file = dir.resolve("run.out");
        assertRefused(run(dir.resolve("sub/../run.out").toString(), file.toString()));
    }
}
