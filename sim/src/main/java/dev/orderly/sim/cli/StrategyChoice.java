package dev.orderly.sim.cli;

import dev.orderly.sim.run.RunSpec;
import dev.orderly.sim.run.Strategy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine;

/** The values of {@code --strategy}: which runs of the scenario the command makes, in the order they run. */
enum StrategyChoice {
    /** Every tenant with ordered launch. */
    ORDERED,
    /** Every tenant with the unordered baseline. */
    UNORDERED,
    /** Every tenant served by a perfect central dispatcher: the limit no client-side strategy can beat. */
    ORACLE,
    /** Ordered, then unordered. */
    BOTH,
    /** One ordered tenant among unordered ones; needs two tenants or more. */
    MIXED,
    /** Ordered, unordered, oracle, then mixed. */
    ALL;

    /** The name written on the command line. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether this choice includes the mixed run (which needs two tenants or more). */
    boolean includesMixed() {
        return this == MIXED || this == ALL;
    }

    /** The runs of this choice for {@code tenants} tenants, in order. */
    List<RunSpec> runs(int tenants) {
        List<RunSpec> runs = new ArrayList<>();
        if (this == ORDERED || this == BOTH || this == ALL) {
            runs.add(RunSpec.all(Strategy.ORDERED, tenants));
        }
        if (this == UNORDERED || this == BOTH || this == ALL) {
            runs.add(RunSpec.all(Strategy.UNORDERED, tenants));
        }
        if (this == ORACLE || this == ALL) {
            runs.add(RunSpec.all(Strategy.ORACLE, tenants));
        }
        if (includesMixed()) {
            runs.add(RunSpec.mixed(tenants));
        }
        return runs;
    }

    /** Every label, as the help and the error list them. */
    static String labels() {
        return Arrays.stream(values()).map(StrategyChoice::label).collect(Collectors.joining(", "));
    }

    /** Reads a value in any case; an unknown one is a one-line error that lists the values. */
    static final class Converter implements CommandLine.ITypeConverter<StrategyChoice> {
        @Override
        public StrategyChoice convert(String value) {
            String wanted = value.strip().toLowerCase(Locale.ROOT);
            for (StrategyChoice choice : values()) {
                if (choice.label().equals(wanted)) {
                    return choice;
                }
            }
            String suggestion = ParameterMessages.closest(wanted,
                    Arrays.stream(values()).map(StrategyChoice::label).toList())
                    .map(label -> "did you mean " + label + "? ").orElse("");
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a strategy; " + suggestion + "use one of " + labels());
        }
    }
}
