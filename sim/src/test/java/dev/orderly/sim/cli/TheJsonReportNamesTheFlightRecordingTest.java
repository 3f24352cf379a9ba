package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --jfr=FILE} prints {@code flight recording: FILE} in the table's output, but with {@code --format=json} the
 * report named the picture and said nothing of the recording: a script reading the JSON could not tell a recording
 * had been written, or where. The JSON now names it as {@code flightRecording} ({@code null} without {@code --jfr}).
 */
@Timeout(60)
class TheJsonReportNamesTheFlightRecordingTest {

    private static CliRun run(Path dir, String... more) {
        String[] base = {"--tenants=1", "--segments=3", "--stages=1", "--time-scale=100", "--strategy=ordered", "-o",
                dir.resolve("t.svg").toString(), "--format=json"};
        String[] args = new String[base.length + more.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        return CliRun.of(args);
    }

    @Test
    void theJsonNamesTheRecordingFileWritten(@TempDir Path dir) {
        Path file = dir.resolve("run.jfr").toAbsolutePath().normalize();
        CliRun o = run(dir, "--jfr=" + file);
        assertEquals(0, o.code(), o.err());
        assertTrue(Files.isRegularFile(file), "no recording at " + file);
        String escaped = file.toString().replace("\\", "\\\\");
        assertTrue(o.out().contains("\"flightRecording\": \"" + escaped + "\""),
                "the JSON names the recording it wrote:\n" + o.out());
    }

    @Test
    void theJsonSaysNoRecordingWithoutJfr(@TempDir Path dir) {
        CliRun o = run(dir);
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("\"flightRecording\": null"), o.out());
    }
}
