package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code --outputs} naming a regular file (or a path under one) was taken; the process listened, and every
 * job then failed writing its output, retried by the tier1 for ever. It is refused at start, exit 2; a directory that
 * does not exist yet is still taken (each request's directory is made when its first output is written).
 */
@Timeout(120)
class OutputsThatIsARegularFileIsABadOptionTest {

    @TempDir
    Path dir;

    @Test
    void aRegularFileIsRefusedNamingOutputs() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.txt"), "not a directory");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OutputLocation.parse(file.toString()));
        assertTrue(e.getMessage().startsWith("--outputs=" + file + " ") && e.getMessage().contains("not a directory"),
                e.getMessage());
    }

    @Test
    void aPathUnderARegularFileIsRefusedNamingTheFile() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.txt"), "not a directory");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OutputLocation.parse(file.resolve("out/more").toString()));
        assertTrue(e.getMessage().startsWith("--outputs=" + file.resolve("out/more")) && e.getMessage().contains(
                file.toString()), e.getMessage());
    }

    @Test
    void aDirectoryOrOneNotThereYetIsTaken() {
        assertEquals(dir, OutputLocation.parse(dir.toString()).directory());
        Path later = dir.resolve("not/yet");
        assertEquals(later, OutputLocation.parse(later.toString()).directory());
        assertFalse(Files.exists(later)); // made by the first write, as before
    }

    @Test
    void theProcessExitsWithTwoAndOneLineBeforeItListens() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.txt"), "not a directory");
        Tier2Child.Ended e = Tier2Child.runToExit(dir.resolve("logs"), Duration.ofSeconds(60),
                "--outputs=" + file, "--worker=" + TestWorkers.Echo.class.getName());
        assertEquals(2, e.code(), e.err());
        assertEquals(1, e.err().lines().count(), e.err());
        assertTrue(e.err().startsWith("tier2: --outputs=" + file), e.err());
        assertEquals("", e.out());
    }
}
