package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Regression: {@code --admission=refuse} leaves the waiting room out, and {@code --room}, {@code --admission-wait} and
 * {@code --wait-at} given with it were dropped without a word (the run went on, exit 0), in {@code orderly},
 * {@code sweep} and {@code fleet}; the tier2 launcher refuses the same contradiction. Each is now exit 2 naming both.
 * Each is given an output under a regular file, which every command refuses after the room's options and before it
 * runs anything, so that a command that took them stops at once too.
 */
@Timeout(60)
class AWaitingRoomOptionWithAdmissionRefuseIsRefusedTest {

    @ParameterizedTest
    @CsvSource({
        ",--room=8",
        ",--admission-wait=2s",
        ",--wait-at=2",
        "sweep,--room=8",
        "fleet,--admission-wait=2s",
    })
    void aRoomOptionWithNoRoomIsABadOption(String command, String option, @TempDir Path dir) throws IOException {
        String name = option.substring(0, option.indexOf('='));
        String unwritable = "--output=" + Files.writeString(dir.resolve("a-file"), "x").resolve("picture.svg");
        CliRun run = command == null
                ? CliRun.of("--admission=refuse", option, unwritable)
                : CliRun.of(command, "--admission=refuse", option, unwritable);
        assertEquals(2, run.code(), run.err());
        assertEquals("orderly: " + option + " is for the waiting room, which --admission=refuse leaves out: drop one"
                + " of them (see orderly" + (command == null ? "" : " " + command) + " --help)", run.line());
        assertEquals(true, run.line().contains(name));
    }
}
