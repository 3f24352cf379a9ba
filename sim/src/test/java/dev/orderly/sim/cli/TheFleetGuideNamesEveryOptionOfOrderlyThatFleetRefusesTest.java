package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fleet guide said {@code ./orderly fleet} runs the scenario "with the same options" as {@code ./orderly}, and
 * named as exceptions only {@code --unreachable-rate} and {@code --wait-at}; but {@code orderly fleet --strategy=ordered},
 * {@code --format=json}, {@code --jfr=FILE} and {@code --metrics} are each exit 2, "unknown option". Every option of
 * {@code orderly} that {@code orderly fleet} does not take is now named in the guide's section on it.
 */
@Timeout(30)
class TheFleetGuideNamesEveryOptionOfOrderlyThatFleetRefusesTest {

    private static final Path GUIDE = Path.of("..").toAbsolutePath().normalize().resolve("docs/guide/fleet.md");
    private static final Pattern OPTION = Pattern.compile("\\[(--[a-z][a-z-]*)");

    /** The long options a command's usage line lists ({@code [--name=...]}), help and version left out. */
    private static Set<String> optionsOf(String... command) {
        String[] args = Arrays.copyOf(command, command.length + 1);
        args[command.length] = "--help";
        CliRun run = CliRun.of(args);
        assertEquals(0, run.code(), run.out() + run.err());
        Set<String> names = new TreeSet<>();
        OPTION.matcher(run.out().substring(0, run.out().indexOf("Runs "))).results()
                .forEach(m -> names.add(m.group(1)));
        return names;
    }

    @Test
    void everyOptionOfOrderlyThatFleetDoesNotTakeIsNamedInTheGuidesFleetSection() throws IOException {
        Set<String> notInFleet = new TreeSet<>(optionsOf());
        notInFleet.removeAll(optionsOf("fleet"));
        assertTrue(notInFleet.contains("--format"), "orderly fleet takes --format now? " + notInFleet);
        String guide = Files.readString(GUIDE);
        int start = guide.indexOf("## `./orderly fleet`: the simulator over real processes");
        int end = guide.indexOf("## `./orderly fleet bench`");
        assertTrue(start >= 0 && end > start, "the guide's section on ./orderly fleet");
        String section = guide.substring(start, end);
        Set<String> unnamed = new TreeSet<>();
        for (String option : notInFleet) {
            if (!Pattern.compile("`" + Pattern.quote(option) + "[`=]").matcher(section).find()) {
                unnamed.add(option);
            }
        }
        assertTrue(unnamed.isEmpty(), "the fleet guide says ./orderly fleet takes the same options as ./orderly, but"
                + " orderly fleet refuses " + unnamed + " as unknown and the guide does not name them");
    }

    @Test
    void andFleetRefusesThemAsUnknown() {
        for (String given : List.of("--strategy=ordered", "--format=json", "--metrics", "--jfr=x.jfr")) {
            CliRun run = CliRun.of("fleet", given);
            assertEquals(2, run.code(), given + ": " + run.err());
            assertTrue(run.line().startsWith("orderly: unknown option '" + given.replaceAll("=.*", "") + "'"),
                    run.line());
        }
    }
}
