package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code --outputs=DIR} was checked for a file in the way, not for a directory the process can not write
 * (a read-only file system, such as the deployment's {@code readOnlyRootFilesystem} with no volume at DIR, or a mount
 * owned by another user). The tier2 said "listening on", its health said SERVING, and every job then failed writing
 * its output, retried by the tier1. It is refused at start, exit 2, naming the option and why.
 */
@Timeout(120)
class AnOutputsDirectoryThatCanNotBeWrittenIsABadOptionTest {

    private static final Pattern JAVA_NAME = Pattern.compile("java\\.[a-z]+\\.|[A-Za-z]+Exception");

    @TempDir
    Path dir;

    /**
     * A directory this process can not make a file in: one of mode r-xr-xr-x, or, for root (whom modes do not stop),
     * {@code /proc}, where nobody can.
     */
    private Path unwritable() throws IOException {
        Path locked = Files.createDirectories(dir.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
        for (Path candidate : new Path[] {locked, Path.of("/proc")}) {
            if (Files.isDirectory(candidate) && !canMakeAFileIn(candidate)) {
                return candidate;
            }
        }
        assumeTrue(false, "no directory this process can not write was found here");
        return null;
    }

    private static boolean canMakeAFileIn(Path directory) {
        try {
            Files.delete(Files.createTempFile(directory, "probe-", ".tmp"));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void aDirectoryThatCanNotBeWrittenIsRefusedNamingOutputs() throws Exception {
        Path out = unwritable();
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> OutputLocation.parse(out.toString()));
            assertTrue(e.getMessage().startsWith("--outputs=" + out + " ") && e.getMessage().contains("written"),
                    e.getMessage());
            assertFalse(JAVA_NAME.matcher(e.getMessage()).find(), e.getMessage());
        } finally {
            restore();
        }
    }

    @Test
    void oneNotThereYetUnderADirectoryThatCanNotBeWrittenIsRefusedNamingThatDirectory() throws Exception {
        Path out = unwritable();
        try {
            Path under = out.resolve("outputs");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> OutputLocation.parse(under.toString()));
            assertTrue(e.getMessage().startsWith("--outputs=" + under) && e.getMessage().contains(out.toString()),
                    e.getMessage());
        } finally {
            restore();
        }
    }

    @Test
    void theProcessExitsWithTwoAndOneLineBeforeItListens() throws Exception {
        Path out = unwritable();
        try {
            Tier2Child.Ended e = Tier2Child.runToExit(dir.resolve("logs"), Duration.ofSeconds(60),
                    "--outputs=" + out, "--worker=" + TestWorkers.Echo.class.getName());
            assertEquals(2, e.code(), e.err());
            assertEquals(1, e.err().lines().count(), e.err());
            assertTrue(e.err().startsWith("tier2: --outputs=" + out), e.err());
            assertEquals("", e.out());
        } finally {
            restore();
        }
    }

    @Test
    void aWritableDirectoryIsStillTakenAndLeftAsItWas() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        assertEquals(out, OutputLocation.parse(out.toString()).directory());
        try (var files = Files.list(out)) {
            assertEquals(0, files.count(), "the check left something behind");
        }
    }

    /** Gives the temporary directory its mode back, for its clean-up. */
    private void restore() throws IOException {
        Path locked = dir.resolve("locked");
        if (Files.exists(locked)) {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }
}
