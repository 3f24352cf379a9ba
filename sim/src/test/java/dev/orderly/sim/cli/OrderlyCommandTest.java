package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.sim.run.RunSpec;
import dev.orderly.sim.run.Strategy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(10)
class OrderlyCommandTest {

    /** A run small and fast enough for a test: 1 tenant, 2 segments, ordered only. */
    private static String[] small(Path dir, String... more) {
        List<String> args = new ArrayList<>(List.of("--tenants=1", "--segments=2", "--time-scale=50",
                "--strategy=ordered", "-q", "-o", dir.resolve("t.svg").toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
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
        "--client-time=-1s|--client-time",
        "--failure-delay=-1s|--failure-delay",
        "--window-percent=0|--launch-window-percent",
        "--window-max=0|--launch-window-max",
        "--max-failures=0|--max-failures",
        "--max-timeouts=0|--max-execution-timeouts",
        "--lookahead=0|--lookahead-factor",
        "--max-concurrent-jobs=-1|--max-concurrent-jobs",
        "--max-concurrent-jobs=many|--max-concurrent-jobs",
        "--output=|--output",
    })
    void aBadOptionGetsOneLineNamingItAndExitCode2(String arg, String option) {
        CliRun o = CliRun.of(arg);
        assertEquals(2, o.code(), o.err());
        assertEquals("", o.out());
        String[] lines = o.err().strip().split("\n");
        assertEquals(1, lines.length, "one line, was: " + o.err());
        assertTrue(lines[0].startsWith("orderly: "), lines[0]);
        assertTrue(lines[0].contains(option), "names " + option + ": " + lines[0]);
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), "no stack trace: " + o.err());
        assertFalse(o.err().contains("java."), "no Java class name: " + o.err());
    }

    @Test
    void bugEngineVariableWithABadValueWasSilentlyIgnored(@TempDir Path dir) {
        CliRun o = CliRun.of(Map.of("SUBSTREAMS_WORKER_MAX_RETRIES", "lots"), small(dir));
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains("SUBSTREAMS_WORKER_MAX_RETRIES") && o.err().contains("'lots'"), o.err());
        assertFalse(o.err().contains("java."), o.err());
    }

    @Test
    void bugEngineVariablesWereIgnoredSoTheyNowReachTheEngineAndOptionsOverrideThem(@TempDir Path dir) {
        CliRun o = CliRun.of(Map.of("SUBSTREAMS_WORKER_LAUNCH_WINDOW_MAX", "3", "SUBSTREAMS_WORKER_MAX_RETRIES", "7",
                "ORDERLY_LOOKAHEAD_FACTOR", "1.5", "SUBSTREAMS_WORKER_OVERLOADED_RETRY_DELAY", "250ms"),
                small(dir, "--window-percent=50", "--max-timeouts=4"));
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("window 50% of workers (2..3), max failures 7, max timeouts 4, look-ahead 1.5"),
                o.out());
        assertTrue(o.out().contains("refused delay 250ms"), o.out());
    }

    @Test
    void bugTimeScaleFarPastWhereTheClockStaysHonestWasAccepted() {
        CliRun o = CliRun.of("--time-scale=1000000");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("--time-scale"), o.err());
    }

    @Test
    void bugAnEmptyOutputPathRanTheWholeScenario() {
        CliRun o = CliRun.of("-o", "");
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertTrue(o.err().contains("--output"), o.err());
    }

    @Test
    void bugAnOutputPathThatCannotBeWrittenWasFoundOnlyAfterTheRun(@TempDir Path dir) throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        CliRun o = CliRun.of("-o", notADirectory.resolve("t.svg").toString());
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains("--output") && o.err().contains(notADirectory.toString()), o.err());
        assertFalse(o.err().contains("java."), o.err());
    }

    @Test
    void bugTheCliAndTheEnvironmentParsedDurationsDifferently() {
        DurationConverter c = new DurationConverter();
        assertEquals(java.time.Duration.ofSeconds(90), c.convert("1m30s"));
        assertEquals(java.time.Duration.ofNanos(100_000), c.convert("100us"));
        assertEquals(java.time.Duration.ofNanos(100_000), c.convert("100\u00b5s"));
        assertEquals(java.time.Duration.ofMillis(1500), c.convert("1s500ms"));
    }

    @Test
    void aMixedRunWithOneTenantIsRefusedNamingTenants() {
        CliRun o = CliRun.of("--strategy=mixed", "--tenants=1");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("--tenants"), o.err());
    }

    @Test
    void perAdmissionFaultRatesAddingUpToMoreThanOneAreRefusedNamingThem() {
        CliRun o = CliRun.of("--timeout-rate=0.5", "--retryable-rate=0.6");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("--timeout-rate") && o.err().contains("--retryable-rate"), o.err());
    }

    @Test
    void anUnknownStrategyIsRefusedListingTheValues() {
        CliRun o = CliRun.of("--strategy=fastest");
        assertEquals(2, o.code());
        assertTrue(o.err().contains(
                "'fastest' is not a strategy; use one of ordered, unordered, oracle, waiting, both, mixed, all"), o.err());
    }

    @Test
    void everyStrategyIsReadInAnyCaseAndMakesItsRuns() {
        StrategyChoice.Converter converter = new StrategyChoice.Converter();
        assertEquals(StrategyChoice.BOTH, converter.convert(" Both "));
        assertEquals(List.of("ordered"), names(converter.convert("ordered").runs(3, true)));
        assertEquals(List.of("unordered"), names(converter.convert("UNORDERED").runs(3, true)));
        assertEquals(List.of("ordered", "unordered"), names(converter.convert("both").runs(3, true)));
        assertEquals(List.of("oracle"), names(converter.convert("Oracle").runs(3, true)));
        assertEquals(List.of("ordered + waiting room"), names(converter.convert("waiting").runs(3, true)));
        assertEquals(List.of("mixed"), names(converter.convert("mixed").runs(3, true)));
        assertEquals(List.of("ordered", "unordered", "oracle", "ordered + waiting room", "mixed"),
                names(converter.convert("all").runs(3, true)));
    }

    @Test
    void withoutAWaitingRoomAllMakesTheFourRunsOfTheOriginalTier2AndTheMixedTenantDoesNotWait() {
        StrategyChoice.Converter converter = new StrategyChoice.Converter();
        List<RunSpec> runs = converter.convert("all").runs(3, false);
        assertEquals(List.of("ordered", "unordered", "oracle", "mixed"), names(runs));
        assertEquals(Strategy.ORDERED, runs.getLast().tenantStrategies().getFirst());
        assertEquals(Strategy.WAITING,
                converter.convert("mixed").runs(3, true).getFirst().tenantStrategies().getFirst());
    }

    @Test
    void badWaitingRoomOptionsAreRefusedNamingTheOptionAndTheValue() {
        CliRun admission = CliRun.of("--admission=queue");
        assertEquals(2, admission.code());
        assertTrue(admission.err().contains("'queue' is not an admission; use refuse or wait"), admission.err());
        CliRun wait = CliRun.of("--admission-wait=0s");
        assertEquals(2, wait.code());
        assertTrue(wait.err().contains("--admission-wait must be > 0, was 0s"), wait.err());
        CliRun room = CliRun.of("--room=0");
        assertEquals(2, room.code());
        assertTrue(room.err().contains("--room must be between 1 and 10000, was 0"), room.err());
        CliRun at = CliRun.of("--wait-at=0");
        assertEquals(2, at.code());
        assertTrue(at.err().contains("--wait-at must be between 1 and 10000, was 0"), at.err());
        CliRun refuse = CliRun.of("--strategy=waiting", "--admission=refuse");
        assertEquals(2, refuse.code());
        assertTrue(refuse.err().contains("--strategy=waiting needs --admission=wait"), refuse.err());
    }

    private static List<String> names(List<RunSpec> runs) {
        return runs.stream().map(RunSpec::name).toList();
    }

    /** The version the command prints is the one the build was given, not a second one kept by hand. */
    @Test
    void versionIsTheProjectVersion() {
        String expected = System.getProperty("orderly.expectedVersion");
        assertNotNull(expected, "surefire passes the pom's version as orderly.expectedVersion");
        CliRun o = CliRun.of("--version");
        assertEquals(0, o.code(), o.err());
        assertEquals("orderly " + expected, o.out().strip());
    }

    @Test
    void helpListsEveryOptionAndExitsZero() {
        CliRun o = CliRun.of("--help");
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

    @Test
    void bugTheHeadingSaidOneTenants(@TempDir Path dir) {
        CliRun o = CliRun.of("--tenants=1", "--segments=2", "--time-scale=100", "--strategy=ordered", "-q", "-o",
                dir.resolve("t.svg").toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().startsWith("orderly: 1 tenant x 2 segments x 2 stages,"), o.out());
    }
}
