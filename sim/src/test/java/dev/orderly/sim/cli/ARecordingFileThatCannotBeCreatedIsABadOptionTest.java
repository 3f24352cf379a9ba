package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code orderly --jfr=/proc/x.jfr} (a directory whose permission bits say "writable" to root, as a read-only mount's
 * do) passed the check, printed the heading, then ended with exit 1 and the line {@code orderly: /proc/x.jfr}, which
 * says neither the option nor what is wrong. {@code --jfr} is now checked as {@code --output} is, by creating the
 * file: exit 2, one line naming the option and the reason, before anything runs.
 */
@Timeout(30)
class ARecordingFileThatCannotBeCreatedIsABadOptionTest {

    @Test
    void aRecordingFileInProcIsRefusedBeforeTheRun() {
        assumeTrue(Files.isDirectory(Path.of("/proc")), "a Linux /proc");
        CliRun o = CliRun.of("--jfr=/proc/orderly-test.jfr", "--segments=2", "--tenants=2", "--strategy=ordered",
                "--time-scale=200", "-q");
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out());
        assertEquals(1, o.line().lines().count(), o.err());
        assertTrue(o.line().startsWith("orderly: --jfr") && o.line().contains("/proc/orderly-test.jfr"), o.line());
    }
}
