package dev.orderly.sim.cli;

import java.util.Locale;

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

    /** Reads {@code table}, {@code csv} or {@code json} in any case; anything else is refused as every choice is. */
    static final class Converter extends Choices.Converter<OutputFormat> {
        Converter() {
            super(OutputFormat.class, "a format");
        }
    }
}
