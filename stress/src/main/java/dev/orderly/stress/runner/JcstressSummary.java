package dev.orderly.stress.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what jcstress printed and says why the run must not count as green.
 *
 * <p>jcstress exits 0 when tests fail, when a fork hits an error, when no test matched and when it silently drops a
 * test it can not schedule (three or more actors on two CPUs). Its console output is the only place that tells, so
 * the run is green only if the last progress line reports a non-zero number of planned test runs, every one of them
 * passed, and none failed or hit a soft or hard error — and nothing was dropped or fatal along the way.
 */
public final class JcstressSummary {

    private static final Pattern RESULTS = Pattern.compile(
            "\\(Results: (\\d+) planned; (\\d+) passed, (\\d+) failed, (\\d+) soft errs, (\\d+) hard errs\\)");

    private JcstressSummary() {
    }

    /**
     * The reasons the run described by {@code output} is not green; empty when it is.
     *
     * @param output everything jcstress printed to its standard output
     */
    public static List<String> problems(String output) {
        List<String> problems = new ArrayList<>();
        for (String line : output.split("[\r\n]+")) {
            if (line.contains("FATAL")) {
                problems.add("jcstress reported: " + line.strip());
            }
            if (line.contains("No scheduling is possible")) {
                problems.add("jcstress dropped tests it could not schedule (more actors than CPUs?): " + line.strip());
            }
        }
        Matcher m = RESULTS.matcher(output);
        String last = null;
        long planned = 0, passed = 0, failed = 0, softErrors = 0, hardErrors = 0;
        while (m.find()) {
            last = m.group();
            planned = Long.parseLong(m.group(1));
            passed = Long.parseLong(m.group(2));
            failed = Long.parseLong(m.group(3));
            softErrors = Long.parseLong(m.group(4));
            hardErrors = Long.parseLong(m.group(5));
        }
        if (last == null) {
            problems.add("no '(Results: ...)' summary line in the jcstress output: the run did not complete");
            return problems;
        }
        if (planned == 0) {
            problems.add("jcstress executed no test: " + last);
        }
        if (failed > 0) {
            problems.add(failed + " test run(s) failed (a FORBIDDEN or unknown outcome was seen): " + last);
        }
        if (softErrors > 0 || hardErrors > 0) {
            problems.add(softErrors + " soft and " + hardErrors + " hard error(s) (exceptions, crashes, timeouts): "
                    + last);
        }
        if (passed != planned && failed == 0 && softErrors == 0 && hardErrors == 0) {
            problems.add("only " + passed + " of " + planned + " planned test runs passed: " + last);
        }
        if (!output.contains("RUN RESULTS:")) {
            problems.add("no 'RUN RESULTS:' section in the jcstress output: the run did not complete");
        }
        return problems;
    }
}
