package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --jfr} and {@code --output} naming one file is refused (AFlightRecordingThatIsALinkToThePictureIsRefusedTest
 * for a symbolic link); a hard link is the same file under another name, which no path comparison sees: with
 * {@code rec.jfr} a hard link to an existing {@code out.svg} the run went on, the picture was written over the
 * recording, and both were named as written (exit 0).
 */
@Timeout(60)
class AFlightRecordingThatIsAHardLinkToThePictureIsRefusedTest {

    @Test
    void theSameFileUnderAnotherNameIsRefused(@TempDir Path dir) throws Exception {
        Path picture = Files.writeString(dir.resolve("out.svg"), "an earlier picture");
        Path recording = Files.createLink(dir.resolve("rec.jfr"), picture);
        CliRun o = CliRun.of("--segments=4", "--tenants=2", "--workers=2", "--instances=1", "--slots=2",
                "--job-duration=100ms", "--client-time=0", "--time-scale=20", "--strategy=ordered", "-q",
                "--jfr=" + recording, "-o", picture.toString());
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("name the same file"), o.err());
        assertEquals("an earlier picture", Files.readString(picture), "nothing was written");
    }
}
