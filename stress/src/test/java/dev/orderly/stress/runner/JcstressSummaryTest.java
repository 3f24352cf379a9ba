package dev.orderly.stress.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The gate reads real jcstress 0.16 output, captured from runs of this module (the bad ones from throw-away tests made
 * to fail, to throw, or to need three actors on this 2-CPU machine): only a complete run in which every planned test
 * passed is green.
 */
@Timeout(10)
class JcstressSummaryTest {

    @Test
    void aRunInWhichEveryPlannedTestPassedIsGreen() throws IOException {
        assertEquals(List.of(), JcstressSummary.problems(output("passed.txt")));
    }

    @Test
    void aRunThatSawAForbiddenOutcomeIsRed() throws IOException {
        List<String> problems = JcstressSummary.problems(output("failed.txt"));
        assertTrue(problems.stream().anyMatch(p -> p.contains("14 test run(s) failed")), problems::toString);
    }

    @Test
    void aRunWhoseTestsThrewIsRed() throws IOException {
        List<String> problems = JcstressSummary.problems(output("hard-errors.txt"));
        assertTrue(problems.stream().anyMatch(p -> p.contains("14 hard error(s)")), problems::toString);
    }

    @Test
    void aRunThatMatchedNoTestIsRedAlthoughJcstressExitsZero() throws IOException {
        List<String> problems = JcstressSummary.problems(output("no-matching-tests.txt"));
        assertTrue(problems.stream().anyMatch(p -> p.contains("FATAL: No matching tests")), problems::toString);
    }

    @Test
    void aRunThatDroppedATestItCouldNotScheduleIsRed() throws IOException {
        List<String> problems = JcstressSummary.problems(output("not-schedulable.txt"));
        assertTrue(problems.stream().anyMatch(p -> p.contains("No scheduling is possible")), problems::toString);
    }

    @Test
    void aRunThatPlannedNothingIsRed() {
        String output = "(Results: 0 planned; 0 passed, 0 failed, 0 soft errs, 0 hard errs)\nRUN RESULTS:\n";
        List<String> problems = JcstressSummary.problems(output);
        assertTrue(problems.stream().anyMatch(p -> p.contains("executed no test")), problems::toString);
    }

    @Test
    void onlyTheLastProgressLineCounts() {
        String output = "(Results: 5 planned; 5 passed, 0 failed, 0 soft errs, 0 hard errs)\n"
                + "(Results: 7 planned; 6 passed, 0 failed, 0 soft errs, 0 hard errs)\nRUN RESULTS:\n";
        List<String> problems = JcstressSummary.problems(output);
        assertTrue(problems.stream().anyMatch(p -> p.contains("only 6 of 7")), problems::toString);
    }

    @Test
    void anUnfinishedRunIsRed() {
        String output = "(Results: 7 planned; 3 passed, 0 failed, 0 soft errs, 0 hard errs)\n";
        List<String> problems = JcstressSummary.problems(output);
        assertTrue(problems.stream().anyMatch(p -> p.contains("RUN RESULTS")), problems::toString);
    }

    private static String output(String name) throws IOException {
        try (InputStream in = JcstressSummaryTest.class.getResourceAsStream("/jcstress-output/" + name)) {
            if (in == null) {
                throw new IOException("missing test resource /jcstress-output/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
