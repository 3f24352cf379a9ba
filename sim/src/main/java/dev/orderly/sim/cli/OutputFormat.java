package dev.orderly.sim.cli;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** How the command prints its report: a table for people, or CSV or JSON for scripts and plots. */
enum OutputFormat {
    /** The comparison table with its legend and notes, after the progress lines. */
    TABLE,
    /** One header line and one line per table row (the ratio rows last), numbers in simulated seconds; nothing else. */
    CSV,
    /** One JSON document: the scenario, every tenant's figures, the table's rows and ratio rows; nothing else. */
    JSON;

    /** The name on the command line. */
    String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Reads {@code table}, {@code csv} or {@code json}; anything else is an error naming the values. */
    static final class Converter implements ITypeConverter<OutputFormat> {
        @Override
        public OutputFormat convert(String value) {
            for (OutputFormat f : values()) {
                if (f.optionValue().equals(value.strip().toLowerCase(Locale.ROOT))) {
                    return f;
                }
            }
            throw new TypeConversionException("must be one of " + Arrays.stream(values())
                    .map(OutputFormat::optionValue).collect(Collectors.joining(", ")) + "; was '" + value + "'");
        }
    }
}
