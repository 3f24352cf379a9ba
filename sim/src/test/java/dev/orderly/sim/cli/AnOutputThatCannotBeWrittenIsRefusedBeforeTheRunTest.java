package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two ways a picture that could not be written was found only after the whole run:
 * <ul>
 *   <li>{@code orderly fleet -o FILE} checked nothing before it started its tier2 processes, and its failed write said
 *       {@code java.nio.file.FileSystemException: ...} after every run had been paid for;</li>
 *   <li>every command's check read the permission bits, which say "writable" to root everywhere and to anyone in
 *       {@code /proc}: {@code -o /proc/t.svg} ran the whole scenario, then failed with exit 1.</li>
 * </ul>
 * Now the file is created (and removed) before anything runs, and a path it cannot be created at is one line naming
 * {@code --output}, the path and why, exit 2.
 */
@Timeout(60)
class AnOutputThatCannotBeWrittenIsRefusedBeforeTheRunTest {

    @TempDir
    Path dir;

    /** A command line for the check's errors to name. */
    @picocli.CommandLine.Command(name = "check")
    static final class Spec {
    }

    private static List<String> small(String command) {
        List<String> args = new ArrayList<>();
        if (!command.isEmpty()) {
            args.add(command);
        }
        args.addAll(switch (command) {
            case "fleet" -> List.of("-q", "--tenants=1", "--segments=4", "--workers=2", "--instances=1", "--slots=2",
                    "--job-duration=1s", "--time-scale=50");
            case "sweep" -> List.of("-q", "--job-ratios=5", "--fullness=2", "--segments=2", "--tenants=1",
                    "--workers=2", "--time-scale=100", "--admission=refuse");
            default -> List.of("--tenants=1", "--segments=4", "--time-scale=100", "--strategy=ordered");
        });
        return args;
    }

    private static CliRun run(String command, Path output) {
        List<String> args = small(command);
        args.add("--output=" + output);
        return CliRun.of(args.toArray(String[]::new));
    }

    private static void assertRefusedBeforeTheRun(CliRun o, Path output) {
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals(1, o.line().lines().count(), o.err());
        assertTrue(o.line().contains("--output") && o.line().contains(output.toString()), o.line());
        assertFalse(o.line().contains("java.") || o.line().contains("Exception"), o.line());
    }

    @Test
    void theFleetChecksItsPictureBeforeItStartsAnyProcess() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        Path output = notADirectory.resolve("t.svg");
        assertRefusedBeforeTheRun(run("fleet", output), output);
        assertTrue(ProcessHandle.current().children().noneMatch(ProcessHandle::isAlive), "a child outlived it");
    }

    @ParameterizedTest(name = "orderly {0} -o /proc/...")
    @ValueSource(strings = {"", "sweep", "fleet"})
    void aPlaceWhereNoFileCanBeCreatedIsRefusedWhateverItsPermissionBitsSay(String command) {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "a Linux /proc");
        Path output = Path.of("/proc/orderly-" + ProcessHandle.current().pid() + ".svg");
        assertRefusedBeforeTheRun(run(command, output), output);
    }

    @Test
    void theCheckLeavesNothingBehindWhereTheRunWouldWrite() throws Exception {
        Path output = dir.resolve("not/yet/there/t.svg");
        assertEquals(output, OutputPath.check(new picocli.CommandLine(Spec.class), "--output",
                output.toString()));
        assertFalse(Files.exists(dir.resolve("not")), "the check made no directory it did not remove");
        Path existing = Files.writeString(dir.resolve("kept.svg"), "<svg/>");
        OutputPath.check(new picocli.CommandLine(Spec.class), "--output", existing.toString());
        assertEquals("<svg/>", Files.readString(existing), "an existing file is not truncated by the check");
    }
}
