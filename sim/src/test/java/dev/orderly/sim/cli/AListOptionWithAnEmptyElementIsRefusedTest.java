package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code orderly sweep --job-ratios=5,} (a trailing comma) ran, as {@code --job-ratios=5}, while
 * {@code --job-ratios=1,,2} was refused: picocli's split drops a trailing empty element. Every list option now refuses
 * an empty element wherever it is, naming the option and the value as it was written.
 */
@Timeout(30)
class AListOptionWithAnEmptyElementIsRefusedTest {

    @ParameterizedTest(name = "sweep {0}")
    @CsvSource(delimiter = '|', value = {
        "--job-ratios=5,|--job-ratios has an empty element, was '5,'",
        "--job-ratios=5,,|--job-ratios has an empty element, was '5,,'",
        "--job-ratios=1,,2|--job-ratios has an empty element, was '1,,2'",
        "--job-ratios=,5|--job-ratios has an empty element, was ',5'",
        "--fullness=2,|--fullness has an empty element, was '2,'",
        "--fullness=0.5,,1|--fullness has an empty element, was '0.5,,1'",
    })
    void theOptionAndItsValueAreNamedAndNothingRuns(String arg, String expected) {
        CliRun o = CliRun.of("sweep", "-q", "--segments=2", "--tenants=1", arg);
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals("orderly: " + expected + " (see orderly sweep --help)", o.line());
    }

    /** A list option added later gets the same check: none is split without it. */
    @Test
    void everyListOptionOfEveryCommandRefusesAnEmptyElement() {
        PrintWriter sink = new PrintWriter(new StringWriter());
        List<String> unchecked = new ArrayList<>();
        List<String> lists = new ArrayList<>();
        collect(new CommandLine(new OrderlyCommand(Map.of(), sink, sink, false)), lists, unchecked);
        assertEquals(List.of(), unchecked, "list options without NoEmptyElement");
        assertEquals(List.of("sweep --job-ratios", "sweep --fullness"), lists, "the list options known today");
    }

    private static void collect(CommandLine cl, List<String> lists, List<String> unchecked) {
        for (OptionSpec o : cl.getCommandSpec().options()) {
            if (!o.splitRegex().isEmpty()) {
                String name = cl.getCommandName() + " " + o.longestName();
                lists.add(name);
                if (!(o.preprocessor() instanceof NoEmptyElement)) {
                    unchecked.add(name);
                }
            }
        }
        cl.getSubcommands().values().forEach(sub -> collect(sub, lists, unchecked));
    }
}
