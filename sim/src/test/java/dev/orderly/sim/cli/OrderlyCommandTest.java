package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.sim.run.RunSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(10)
class OrderlyCommandTest {

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), false);
        return new Outcome(code, out.toString(), err.toString());
    }

    @ParameterizedTest(name = "{0} -> names {1}")
    @CsvSource(delimiter = '|', value = {
        "--segments=0|--segments",
        "--segments=abc|--segments",
        "--stages=0|--stages",
        "--workers=-3|--workers",
        "--tenants=0|--tenants",
        "--instances=0|--instances",
        "--slots=0|--slots",
        "--job-duration=0|--job-duration",
        "--job-duration=fast|--job-duration",
        "--job-spread=-1|--job-spread",
        "--client-time=5 parsecs|--client-time",
        "--refused-delay=-1s|--refused-delay",
        "--unreachable-rate=2|--unreachable-rate",
        "--timeout-rate=-0.1|--timeout-rate",
        "--retryable-rate=x|--retryable-rate",
        "--fatal-rate=1.01|--fatal-rate",
        "--missing-output-rate=NaN|--missing-output-rate",
        "--seed=1.5|--seed",
        "--strategy=fastest|--strategy",
        "--time-scale=0|--time-scale",
        "--no-such-option|--no-such-option",
    })
    void aBadOptionGetsOneLineNamingItAndExitCode2(String arg, String option) {
        Outcome o = run(arg);
        assertEquals(2, o.code(), o.err());
        assertEquals("", o.out());
        String[] lines = o.err().strip().split("\n");
        assertEquals(1, lines.length, "one line, was: " + o.err());
        assertTrue(lines[0].startsWith("orderly: "), lines[0]);
        assertTrue(lines[0].contains(option), "names " + option + ": " + lines[0]);
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), "no stack trace: " + o.err());
    }

    @Test
    void aMixedRunWithOneTenantIsRefusedNamingTenants() {
        Outcome o = run("--strategy=mixed", "--tenants=1");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("--tenants"), o.err());
    }

    @Test
    void perAdmissionFaultRatesAddingUpToMoreThanOneAreRefusedNamingThem() {
        Outcome o = run("--timeout-rate=0.5", "--retryable-rate=0.6");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("--timeout-rate") && o.err().contains("--retryable-rate"), o.err());
    }

    @Test
    void anUnknownStrategyIsRefusedListingTheValues() {
        Outcome o = run("--strategy=fastest");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("'fastest' is not a strategy; use one of ordered, unordered, both, mixed, all"),
                o.err());
    }

    @Test
    void everyStrategyIsReadInAnyCaseAndMakesItsRuns() {
        StrategyChoice.Converter converter = new StrategyChoice.Converter();
        assertEquals(StrategyChoice.BOTH, converter.convert(" Both "));
        assertEquals(List.of("ordered"), names(converter.convert("ordered").runs(3)));
        assertEquals(List.of("unordered"), names(converter.convert("UNORDERED").runs(3)));
        assertEquals(List.of("ordered", "unordered"), names(converter.convert("both").runs(3)));
        assertEquals(List.of("mixed"), names(converter.convert("mixed").runs(3)));
        assertEquals(List.of("ordered", "unordered", "mixed"), names(converter.convert("all").runs(3)));
    }

    private static List<String> names(List<RunSpec> runs) {
        return runs.stream().map(RunSpec::name).toList();
    }

    /** The version the command prints is the one the build was given, not a second one kept by hand. */
    @Test
    void versionIsTheProjectVersion() {
        String expected = System.getProperty("orderly.expectedVersion");
        assertNotNull(expected, "surefire passes the pom's version as orderly.expectedVersion");
        Outcome o = run("--version");
        assertEquals(0, o.code(), o.err());
        assertEquals("orderly " + expected, o.out().strip());
    }

    @Test
    void helpListsEveryOptionAndExitsZero() {
        Outcome o = run("--help");
        assertEquals(0, o.code());
        for (String option : new String[] {"--segments", "--stages", "--workers", "--tenants", "--instances",
            "--slots", "--job-duration", "--unreachable-rate", "--timeout-rate", "--retryable-rate", "--fatal-rate",
            "--missing-output-rate", "--seed", "--strategy", "--time-scale", "--output", "--quiet"}) {
            assertTrue(o.out().contains(option), "help lists " + option);
        }
    }

    @Test
    void durationsReadTheWayTheHelpWritesThem() {
        DurationConverter c = new DurationConverter();
        assertEquals(java.time.Duration.ofMillis(250), c.convert("250ms"));
        assertEquals(java.time.Duration.ofMillis(1500), c.convert("1.5s"));
        assertEquals(java.time.Duration.ofMinutes(2), c.convert("2m"));
        assertEquals(java.time.Duration.ZERO, c.convert("0"));
        assertEquals("1.5s", DurationConverter.format(java.time.Duration.ofMillis(1500)));
        assertEquals("250ms", DurationConverter.format(java.time.Duration.ofMillis(250)));
    }
}
