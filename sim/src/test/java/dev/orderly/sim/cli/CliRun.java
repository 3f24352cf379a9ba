package dev.orderly.sim.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/**
 * One run of the {@code orderly} command line in the test's own JVM, and what it printed. The environment is the one
 * given, never the machine's, so that an {@code ORDERLY_*} or {@code SUBSTREAMS_*} variable where the tests run changes
 * no outcome.
 *
 * @param code the exit code {@link OrderlyCommand#execute} returned
 * @param out what it printed for people on standard output
 * @param err what it printed on standard error
 */
record CliRun(int code, String out, String err) {

    static CliRun of(String... args) {
        return of(Map.of(), args);
    }

    static CliRun of(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(args, env, new PrintWriter(out, true), new PrintWriter(err, true), false);
        return new CliRun(code, out.toString(), err.toString());
    }

    /** Standard error without its surrounding blank space: for a refusal, its one line. */
    String line() {
        return err.strip();
    }
}
