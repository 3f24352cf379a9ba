package dev.orderly.sim.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The options that say how a run is observed and reported: a flight recording of the engine's events, the report's
 * format, and a Micrometer summary. {@link #open} checks them and starts what they ask for.
 */
final class ObservabilityOptions {

    @Option(names = "--jfr", paramLabel = "FILE",
            description = "Record the measured runs with Java Flight Recorder (the JDK's default events and Orderly's"
                    + " dev.orderly.* events) into FILE; read it with 'jfr print --events dev.orderly.Dial FILE'.")
    private Path jfr;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table", converter = OutputFormat.Converter.class,
            description = "table (for people), csv (the table's rows) or json (every tenant's figures and the ratios,"
                    + " for scripts); csv and json print nothing else on stdout (default: ${DEFAULT-VALUE}).")
    private OutputFormat format;

    @Option(names = "--metrics",
            description = "Also count every run with Orderly's Micrometer meters (a SimpleMeterRegistry, one run tag"
                    + " per run) and print them after the table (in json: under \"meters\").")
    private boolean metrics;

    /** The report's format. */
    OutputFormat format() {
        return format;
    }

    /**
     * Checks the options: a value or a combination that can not work is a {@link ParameterException} naming the
     * option.
     */
    void check(CommandLine cl) {
        if (metrics && format == OutputFormat.CSV) {
            throw new ParameterException(cl, "--metrics can not be printed with --format=csv (it would break the"
                    + " CSV); use --format=json or --format=table");
        }
        if (jfr != null) {
            Path file = jfr.toAbsolutePath().normalize();
            Path dir = file.getParent();
            if (Files.isDirectory(file) || dir == null || !Files.isDirectory(dir) || !Files.isWritable(dir)
                    || (Files.exists(file) && !Files.isWritable(file))) {
                throw new ParameterException(cl, "--jfr must name a writable file in an existing directory, was '"
                        + jfr + "'");
            }
            try {
                // The bits say "writable" to root, in /proc too and on a read-only mount: only making the file tells.
                // Unchecked, the recording failed after the heading, exit 1, with the path alone for a reason.
                OutputPath.tryCreate(file);
            } catch (IOException e) {
                throw new ParameterException(cl, "--jfr: cannot write " + OutputPath.describe(e));
            }
        }
    }

    /**
     * Refuses a recording to the file {@code option} writes ({@code picture}, checked and absolute): the recording
     * is written when the runs end and the picture after it, over it, and both were then named as written.
     */
    void checkApartFrom(CommandLine cl, String option, Path picture) {
        // Through links too (a link to a file not there yet is taken as either, and the write follows it), and as one
        // file under two names.
        if (jfr != null && OutputPath.sameFile(jfr.toAbsolutePath().normalize(), picture)) {
            throw new ParameterException(cl, "--jfr and " + option + " name the same file, " + picture
                    + ": the picture would be written over the recording; give them different files");
        }
    }

    /**
     * Starts what the options ask for: the recording (if {@code --jfr}) and the meters (if {@code --metrics}).
     * Close the result after the last run to write the recording.
     *
     * @throws IOException when the recording can not be started
     */
    Observation open() throws IOException {
        return Observation.start(jfr == null ? null : jfr.toAbsolutePath().normalize(), metrics);
    }
}
