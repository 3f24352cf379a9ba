package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link EngineConfig#fromEnvironment}: every variable of the configuration table is read, every bad value is an
 * {@link IllegalArgumentException} naming the variable and the value as written, and never a silent default.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class EngineConfigEnvironmentTest {

    private static final String PERCENT = "SUBSTREAMS_WORKER_LAUNCH_WINDOW_PERCENT";
    private static final String MAX = "SUBSTREAMS_WORKER_LAUNCH_WINDOW_MAX";
    private static final String REFUSED = "SUBSTREAMS_WORKER_OVERLOADED_RETRY_DELAY";
    private static final String FAILED = "SUBSTREAMS_WORKER_FAILED_RETRY_DELAY";
    private static final String RETRIES = "SUBSTREAMS_WORKER_MAX_RETRIES";
    private static final String TIMEOUTS = "SUBSTREAMS_WORKER_MAX_TIMEOUT_RETRIES";
    private static final String LOOKAHEAD = "ORDERLY_LOOKAHEAD_FACTOR";
    private static final String ORDERED = "ORDERLY_ORDERED_LAUNCH";
    private static final String STALL = "ORDERLY_STALL_WARNING";
    private static final String JOBS = "SUBSTREAMS_TIER1_MAX_SUBREQUESTS";

    @Test
    void theConstantsNameTheVariablesOfTheDesignTable() {
        assertEquals(PERCENT, EngineConfig.ENV_LAUNCH_WINDOW_PERCENT);
        assertEquals(MAX, EngineConfig.ENV_LAUNCH_WINDOW_MAX);
        assertEquals(REFUSED, EngineConfig.ENV_REFUSED_DELAY);
        assertEquals(FAILED, EngineConfig.ENV_FAILURE_DELAY);
        assertEquals(RETRIES, EngineConfig.ENV_MAX_FAILURES);
        assertEquals(TIMEOUTS, EngineConfig.ENV_MAX_EXECUTION_TIMEOUTS);
        assertEquals(LOOKAHEAD, EngineConfig.ENV_LOOKAHEAD_FACTOR);
        assertEquals(ORDERED, EngineConfig.ENV_ORDERED_LAUNCH);
        assertEquals(STALL, EngineConfig.ENV_STALL_WARNING);
        assertEquals(JOBS, EngineConfig.ENV_MAX_CONCURRENT_JOBS);
    }

    @Test
    void anEmptyEnvironmentGivesTheDefaults() {
        assertEquals(EngineConfig.defaults(), EngineConfig.fromEnvironment(Map.of()));
    }

    @Test
    void otherVariablesAreIgnored() {
        assertEquals(EngineConfig.defaults(), EngineConfig.fromEnvironment(
                Map.of("PATH", "/usr/bin", "SUBSTREAMS_WORKER_SOMETHING_ELSE", "x", "orderly_lookahead_factor", "x")));
    }

    @Test
    void aNullEnvironmentIsRejected() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> EngineConfig.fromEnvironment(null));
        assertEquals("env", e.getMessage());
    }

    static Stream<Arguments> everyVariable() {
        return Stream.of(
                read(PERCENT, "50", b -> b.launchWindowPercent(50)),
                read(PERCENT, "1", b -> b.launchWindowPercent(1)),
                read(PERCENT, "100", b -> b.launchWindowPercent(100)),
                read(PERCENT, " 30 ", b -> b.launchWindowPercent(30)),
                read(MAX, "40", b -> b.launchWindowMax(40)),
                read(MAX, "2", b -> b.launchWindowMax(2)),
                read(REFUSED, "250ms", b -> b.refusedDelay(Duration.ofMillis(250))),
                read(REFUSED, "0", b -> b.refusedDelay(Duration.ZERO)),
                read(REFUSED, "1.5s", b -> b.refusedDelay(Duration.ofMillis(1500))),
                read(REFUSED, "300us", b -> b.refusedDelay(Duration.ofNanos(300_000))),
                read(FAILED, "1m30s", b -> b.failureDelay(Duration.ofSeconds(90))),
                read(FAILED, "2h", b -> b.failureDelay(Duration.ofHours(2))),
                read(FAILED, "100ms", b -> b.failureDelay(Duration.ofMillis(100))),
                read(RETRIES, "9", b -> b.maxFailures(9)),
                read(RETRIES, "1", b -> b.maxFailures(1)),
                read(TIMEOUTS, "7", b -> b.maxExecutionTimeouts(7)),
                read(TIMEOUTS, "1", b -> b.maxExecutionTimeouts(1)),
                read(LOOKAHEAD, "3.5", b -> b.lookaheadFactor(3.5)),
                read(LOOKAHEAD, "0.25", b -> b.lookaheadFactor(0.25)),
                read(ORDERED, "false", b -> b.ordered(false)),
                read(ORDERED, "FALSE", b -> b.ordered(false)),
                read(ORDERED, "False", b -> b.ordered(false)),
                read(STALL, "2m", b -> b.stallWarning(Duration.ofMinutes(2))),
                read(STALL, "1ns", b -> b.stallWarning(Duration.ofNanos(1))),
                read(JOBS, "32", b -> b.maxConcurrentJobs(32)),
                read(JOBS, "1", b -> b.maxConcurrentJobs(1)),
                read(JOBS, " 500 ", b -> b.maxConcurrentJobs(500)));
    }

    private static Arguments read(String variable, String value, UnaryOperator<EngineConfig.Builder> expected) {
        return Arguments.of(variable, value, expected);
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("everyVariable")
    void everyVariableIsReadAndChangesOnlyItsOwnField(String variable, String value,
            UnaryOperator<EngineConfig.Builder> expected) {
        EngineConfig read = EngineConfig.fromEnvironment(Map.of(variable, value));
        assertEquals(expected.apply(EngineConfig.builder()).build(), read);
        assertNotEquals(EngineConfig.defaults(), read, "every value above differs from the default");
    }

    @Test
    void theDefaultValuesWrittenOutAreAcceptedToo() {
        Map<String, String> env = Map.of(PERCENT, "20", MAX, "15", REFUSED, "100ms", FAILED, "5s", RETRIES, "5",
                TIMEOUTS, "2", LOOKAHEAD, "2.0", ORDERED, "true", STALL, "30s", JOBS, "0");
        assertEquals(EngineConfig.defaults(), EngineConfig.fromEnvironment(env));
    }

    @Test
    void allVariablesTogether() {
        Map<String, String> env = new HashMap<>();
        env.put(PERCENT, "25");
        env.put(MAX, "12");
        env.put(REFUSED, "50ms");
        env.put(FAILED, "2s");
        env.put(RETRIES, "3");
        env.put(TIMEOUTS, "4");
        env.put(LOOKAHEAD, "1.25");
        env.put(ORDERED, "false");
        env.put(STALL, "45s");
        env.put(JOBS, "64");
        assertEquals(new EngineConfig(25, 2, 12, Duration.ofMillis(50), Duration.ofSeconds(2), 3, 4, 1.25, false,
                Duration.ofSeconds(45), 64), EngineConfig.fromEnvironment(env));
    }

    @ParameterizedTest(name = "{0}=''{1}''")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            // unparsable
            PERCENT + "|twenty", PERCENT + "|20%", PERCENT + "|2.5", PERCENT + "|0x14", PERCENT + "|99999999999",
            MAX + "|many", MAX + "|1e3",
            REFUSED + "|100", REFUSED + "|fast", REFUSED + "|100 ms", REFUSED + "|5sec", REFUSED + "|1m30",
            FAILED + "|5", FAILED + "|PT5S", FAILED + "|1.2.3s", FAILED + "|s",
            RETRIES + "|five", RETRIES + "|5.0", RETRIES + "|-",
            TIMEOUTS + "|two", TIMEOUTS + "|2x",
            LOOKAHEAD + "|double", LOOKAHEAD + "|2,5", LOOKAHEAD + "|--1",
            ORDERED + "|yes", ORDERED + "|1", ORDERED + "|0", ORDERED + "|off", ORDERED + "|truee",
            STALL + "|30", STALL + "|soon", STALL + "|\"\"", STALL + "|0", STALL + "|0s", STALL + "|-30s",
            JOBS + "|many", JOBS + "|32.0", JOBS + "|\"\"", JOBS + "|unlimited", JOBS + "|-1", JOBS + "|99999999999",
            // empty and blank
            PERCENT + "|\"\"", MAX + "|\"\"", REFUSED + "|\"\"", FAILED + "|\"\"", RETRIES + "|\"\"",
            TIMEOUTS + "|\"\"", LOOKAHEAD + "|\"\"", ORDERED + "|\"\"",
            PERCENT + "|\" \"", REFUSED + "|\"  \"", ORDERED + "|\" \"",
            // out of range
            PERCENT + "|0", PERCENT + "|101", PERCENT + "|-5",
            MAX + "|0", MAX + "|1", MAX + "|-3",
            REFUSED + "|-1s", REFUSED + "|-100ms",
            FAILED + "|-5s", FAILED + "|-1ns",
            RETRIES + "|0", RETRIES + "|-1",
            TIMEOUTS + "|0", TIMEOUTS + "|-2",
            LOOKAHEAD + "|0", LOOKAHEAD + "|-1.5", LOOKAHEAD + "|NaN", LOOKAHEAD + "|Infinity", LOOKAHEAD + "|1e400",
            LOOKAHEAD + "|5000", LOOKAHEAD + "|1000.5", LOOKAHEAD + "|1e6",
            // Java's own number syntax is no number here
            LOOKAHEAD + "|2d", LOOKAHEAD + "|2f", LOOKAHEAD + "|2D", LOOKAHEAD + "|0x1p1",
    })
    void aBadValueIsRejectedNamingTheVariableAndTheValueAsWritten(String variable, String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineConfig.fromEnvironment(Map.of(variable, value)));
        assertTrue(e.getMessage().startsWith(variable + " "), e.getMessage());
        assertTrue(e.getMessage().contains("'" + value + "'"), e.getMessage());
    }

    /**
     * Regression: an out-of-range value was shown as parsed, not as written: {@code -1s} as {@code PT-1S},
     * {@code 1e400} as {@code Infinity}, which the user can not find in their environment.
     */
    @Test
    void bugOutOfRangeValuesWereShownParsedNotAsWritten() {
        assertEquals(REFUSED + " must be >= 0, was '-1s'", rejection(REFUSED, "-1s"));
        assertEquals(FAILED + " must be >= 0, was '-250ms'", rejection(FAILED, "-250ms"));
        assertEquals(LOOKAHEAD + " must be a finite number > 0, was '1e400'", rejection(LOOKAHEAD, "1e400"));
        assertEquals(PERCENT + " must be between 1 and 100, was '+0'", rejection(PERCENT, "+0"));
    }

    /**
     * Regression: a look-ahead factor above its maximum was reported under the field's name with the parsed number
     * ({@code lookaheadFactor must be <= 1000.0 ..., was 5000.0}), not the variable's with the value as written; and
     * Java's own literals ({@code 2d}, {@code 0x1p1}) were read as numbers, so a mistyped value became a setting.
     */
    @Test
    void bugALookaheadFactorAboveItsMaximumOrInJavaSyntaxWasNotNamedAsWritten() {
        assertEquals(LOOKAHEAD + " must be <= 1000 (segments of look-ahead per worker), was '5000'",
                rejection(LOOKAHEAD, "5000"));
        assertEquals(LOOKAHEAD + " must be <= 1000 (segments of look-ahead per worker), was '1e6'",
                rejection(LOOKAHEAD, "1e6"));
        assertEquals(LOOKAHEAD + " must be a number, was '2d'", rejection(LOOKAHEAD, "2d"));
        assertEquals(LOOKAHEAD + " must be a number, was '0x1p1'", rejection(LOOKAHEAD, "0x1p1"));
        assertEquals(1000, EngineConfig.fromEnvironment(Map.of(LOOKAHEAD, "1e3")).lookaheadFactor());
        assertEquals(0.5, EngineConfig.fromEnvironment(Map.of(LOOKAHEAD, " .5 ")).lookaheadFactor());
    }

    /**
     * Regression: a whole number too large (or too small) for an {@code int} was reported as "must be a whole
     * number", which it is; the user could not see what was wrong with it.
     */
    @Test
    void bugAWholeNumberOutsideTheIntRangeWasSaidNotToBeAWholeNumber() {
        assertEquals(RETRIES + " is too large, was '99999999999'", rejection(RETRIES, "99999999999"));
        assertEquals(PERCENT + " is too large, was ' 2147483648'", rejection(PERCENT, " 2147483648"));
        assertEquals(TIMEOUTS + " is too small, was '-99999999999'", rejection(TIMEOUTS, "-99999999999"));
        assertEquals(MAX + " must be a whole number, was '9.5'", rejection(MAX, "9.5"));
    }

    /**
     * Regression: a whole number was read by {@code Integer.parseInt}, which takes any script's digits, so
     * {@code "\u0665"} (Arabic-Indic five) was read as 5, though the guide says numbers are decimal, as
     * {@code GoDuration} and the lookahead factor's check already hold them (0-9 only).
     */
    @Test
    void bugAWholeNumberInAnotherScriptsDigitsWasRead() {
        assertEquals(RETRIES + " must be a whole number, was '\u0665'", rejection(RETRIES, "\u0665"));
        assertEquals(JOBS + " must be a whole number, was '\u0967\u0966'", rejection(JOBS, "\u0967\u0966"));
        assertEquals(5, EngineConfig.fromEnvironment(Map.of(RETRIES, "+5")).maxFailures());
    }

    @Test
    void maxConcurrentJobsFromTheEnvironmentSaysZeroMeansUnlimited() {
        assertEquals(JOBS + " must be >= 1, or 0 for unlimited, was '-4'", rejection(JOBS, "-4"));
        assertEquals(EngineConfig.UNLIMITED_JOBS,
                EngineConfig.fromEnvironment(Map.of(JOBS, "0")).maxConcurrentJobs());
    }

    private static String rejection(String variable, String value) {
        return assertThrows(IllegalArgumentException.class,
                () -> EngineConfig.fromEnvironment(Map.of(variable, value))).getMessage();
    }

    @Test
    void aBadValueIsNeverReplacedByTheDefaultEvenWhenTheOtherVariablesAreGood() {
        Map<String, String> env = Map.of(PERCENT, "50", RETRIES, "abc", ORDERED, "false");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineConfig.fromEnvironment(env));
        assertTrue(e.getMessage().contains(RETRIES), e.getMessage());
    }

    @Test
    void theUnparsableDurationMessageShowsTheExpectedForm() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineConfig.fromEnvironment(Map.of(REFUSED, "100")));
        assertEquals(REFUSED + " must be a duration such as 100ms, 5s or 1m30s, was '100': missing unit after '100'"
                + " in '100' (use ns, us, ms, s, m or h)", e.getMessage());
    }

    @Test
    void aWindowMaxBelowTheMinimumSaysWhatTheMinimumIs() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineConfig.fromEnvironment(Map.of(MAX, "1")));
        assertTrue(e.getMessage().contains("launchWindowMin (2)"), e.getMessage());
    }

    @Test
    void theEnvironmentIsOnlyRead() {
        Map<String, String> env = new HashMap<>(Map.of(PERCENT, "30"));
        EngineConfig.fromEnvironment(env);
        assertEquals(Map.of(PERCENT, "30"), env);
        assertFalse(env.containsKey(MAX));
    }
}
