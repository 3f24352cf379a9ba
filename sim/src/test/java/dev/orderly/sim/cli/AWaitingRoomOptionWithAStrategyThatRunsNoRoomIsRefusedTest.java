package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --room}, {@code --admission-wait} and {@code --wait-at} shape only the runs whose dials wait in the room
 * ({@code waiting}, and {@code mixed}'s ordered tenant). With {@code --strategy=ordered}, {@code unordered},
 * {@code oracle} or {@code both} no run has a room: the options were dropped without a word (exit 0), and the JSON's
 * scenario still named the room and its seats, as with {@code --admission=refuse} before it was refused. Each is now
 * exit 2 naming the option and the strategy. Each run is given an output under a regular file, which the command
 * refuses after these options and before it runs anything, so that a command that took them stops at once too.
 */
@Timeout(60)
class AWaitingRoomOptionWithAStrategyThatRunsNoRoomIsRefusedTest {

    @TempDir
    Path dir;

    private String unwritable() throws IOException {
        return "--output=" + Files.writeString(dir.resolve("a-file"), "x").resolve("picture.svg");
    }

    @ParameterizedTest
    @CsvSource({
        "ordered,--room=8",
        "unordered,--admission-wait=2s",
        "oracle,--wait-at=2",
        "both,--room=8",
    })
    void aRoomOptionWithNoRunThatWaitsIsABadOption(String strategy, String option) throws IOException {
        CliRun run = CliRun.of("--strategy=" + strategy, option, unwritable());
        assertEquals(2, run.code(), run.err());
        assertEquals("orderly: " + option + " is for the waiting room, which --strategy=" + strategy + " does not"
                + " run: drop one of them (see orderly --help)", run.line());
    }

    @ParameterizedTest
    @CsvSource({"waiting", "mixed", "all"})
    void aRoomOptionWithARunThatWaitsIsTaken(String strategy) throws IOException {
        CliRun run = CliRun.of("--strategy=" + strategy, "--room=8", unwritable());
        assertEquals(2, run.code(), run.err());
        assertTrue(run.line().startsWith("orderly: --output"), "refused for its output alone: " + run.line());
    }

    @Test
    void theWaitingRoomsDefaultsGoWithEveryStrategy() throws IOException {
        CliRun run = CliRun.of("--strategy=ordered", "--admission=wait", unwritable());
        assertTrue(run.line().startsWith("orderly: --output"), "refused for its output alone: " + run.line());
    }
}
