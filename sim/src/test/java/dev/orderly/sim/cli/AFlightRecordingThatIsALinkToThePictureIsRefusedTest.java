package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --jfr} and {@code --output} naming the same file is refused, exit 2 ("name the same file"): the picture is
 * written after the recording, over it. Since a link to a file not there yet is taken as an output
 * (AnOutputThatIsALinkToAFileNotThereYetIsTakenTest), {@code --jfr=rec.jfr}, a link to {@code out.svg}, with
 * {@code -o out.svg} was taken: the two paths differ as text, so the run went on, the picture was written over the
 * recording, and both were named as written (exit 0). Before that change the link itself was refused.
 */
@Timeout(60)
class AFlightRecordingThatIsALinkToThePictureIsRefusedTest {

    @Test
    void theSameFileThroughALinkIsRefused(@TempDir Path dir) throws Exception {
        Path picture = dir.resolve("out.svg");
        Path recording = Files.createSymbolicLink(dir.resolve("rec.jfr"), Path.of("out.svg"));
        CliRun o = CliRun.of("--segments=4", "--tenants=2", "--workers=2", "--instances=1", "--slots=2",
                "--job-duration=100ms", "--client-time=0", "--time-scale=20", "--strategy=ordered", "-q",
                "--jfr=" + recording, "-o", picture.toString());
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("name the same file"), o.err());
        assertTrue(Files.notExists(picture), "nothing was written");
    }
}
