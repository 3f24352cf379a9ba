package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code orderly fleet --store=gcs} was refused in picocli's words ({@code expected one of [file, s3]
 * (case-sensitive) but was 'gcs'}), unlike {@code --strategy} and {@code --admission}. Every option whose values are
 * a fixed set, in every command, now says it the one way: {@code --store: 'gcs' is not a store; use file or s3}.
 */
@Timeout(30)
class EveryChoiceOptionIsRefusedInTheProjectsWordsTest {

    private static void assertRefusedInTheProjectsWords(CliRun o, String option, String value, List<String> values) {
        assertEquals(2, o.code(), o.err());
        assertEquals("", o.out());
        List<String> lines = o.err().strip().lines().toList();
        assertEquals(1, lines.size(), "one line, was: " + o.err());
        String line = lines.getFirst();
        assertTrue(line.startsWith("orderly: " + option + ": '" + value + "' is not a"), line);
        String use = values.size() == 2 ? "; use " + values.get(0) + " or " + values.get(1)
                : "; use one of " + String.join(", ", values);
        assertTrue(line.contains(use + " (see orderly"), "'" + use + "' in " + line);
        assertFalse(line.contains("expected one of") || line.contains("case-sensitive"), line);
    }

    @Test
    void anUnknownStoreIsRefusedAsTheOtherChoicesAre() {
        CliRun o = CliRun.of("fleet", "--store=gcs");
        assertRefusedInTheProjectsWords(o, "--store", "gcs", List.of("file", "s3"));
        assertTrue(o.line().startsWith("orderly: --store: 'gcs' is not a store; use file or s3"), o.line());
    }

    @Test
    void anUnknownFormatIsRefusedAsTheOtherChoicesAre() {
        CliRun o = CliRun.of("--format=xml");
        assertRefusedInTheProjectsWords(o, "--format", "xml", List.of("table", "csv", "json"));
    }

    @Test
    void everyChoiceOptionOfEveryCommandIsRefusedInTheProjectsWords() {
        PrintWriter quiet = new PrintWriter(new StringWriter());
        CommandLine root = new CommandLine(new OrderlyCommand(Map.of(), quiet, quiet, false));
        root.addSubcommand("fleet", FleetCommand.commandLine(Map.of(), quiet, quiet, false));
        List<String> checked = new ArrayList<>();
        check(root, List.of(), checked);
        assertTrue(checked.containsAll(List.of("orderly --strategy", "orderly --format", "orderly --admission",
                "fleet --store", "fleet --admission")), "the choice options found: " + checked);
    }

    private static void check(CommandLine cl, List<String> path, List<String> checked) {
        for (OptionSpec option : cl.getCommandSpec().options()) {
            if (option.type().isEnum()) {
                List<String> values = new ArrayList<>();
                for (Object constant : option.type().getEnumConstants()) {
                    values.add(((Enum<?>) constant).name().toLowerCase(Locale.ROOT));
                }
                List<String> args = new ArrayList<>(path);
                args.add(option.longestName() + "=zzz");
                assertRefusedInTheProjectsWords(CliRun.of(args.toArray(String[]::new)), option.longestName(), "zzz",
                        values);
                checked.add(cl.getCommandName() + " " + option.longestName());
            }
        }
        for (CommandLine sub : cl.getSubcommands().values()) {
            List<String> subPath = new ArrayList<>(path);
            subPath.add(sub.getCommandName());
            check(sub, subPath, checked);
        }
    }
}
