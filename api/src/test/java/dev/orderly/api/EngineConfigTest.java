package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
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

/** {@link EngineConfig}: defaults, the builder, and every field's range. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class EngineConfigTest {

    @Test
    void defaultsAreThoseOfTheDesignTable() {
        EngineConfig c = EngineConfig.defaults();
        assertEquals(20, c.launchWindowPercent());
        assertEquals(2, c.launchWindowMin());
        assertEquals(15, c.launchWindowMax());
        assertEquals(Duration.ofMillis(100), c.refusedDelay());
        assertEquals(Duration.ofSeconds(5), c.failureDelay());
        assertEquals(5, c.maxFailures());
        assertEquals(2, c.maxExecutionTimeouts());
        assertEquals(2.0, c.lookaheadFactor());
        assertTrue(c.ordered());
        assertEquals(0, c.maxConcurrentJobs(), "unlimited");
        assertEquals(EngineConfig.UNLIMITED_JOBS, c.maxConcurrentJobs());
    }

    @Test
    void aBuilderStartsFromTheDefaults() {
        assertEquals(EngineConfig.defaults(), EngineConfig.builder().build());
    }

    @Test
    void theBuilderSetsEveryField() {
        EngineConfig c = EngineConfig.builder()
                .launchWindowPercent(50)
                .launchWindowMin(3)
                .launchWindowMax(30)
                .refusedDelay(Duration.ofMillis(7))
                .failureDelay(Duration.ofSeconds(9))
                .maxFailures(11)
                .maxExecutionTimeouts(4)
                .lookaheadFactor(0.5)
                .ordered(false)
                .stallWarning(Duration.ofSeconds(3))
                .maxConcurrentJobs(32)
                .build();
        assertEquals(new EngineConfig(50, 3, 30, Duration.ofMillis(7), Duration.ofSeconds(9), 11, 4, 0.5, false,
                Duration.ofSeconds(3), 32), c);
    }

    @Test
    void theConstructorsWrittenBeforeMaxConcurrentJobsStillMakeAnUncappedConfig() {
        EngineConfig nine = new EngineConfig(50, 3, 30, Duration.ofMillis(7), Duration.ofSeconds(9), 11, 4, 0.5, false);
        EngineConfig ten = new EngineConfig(50, 3, 30, Duration.ofMillis(7), Duration.ofSeconds(9), 11, 4, 0.5, false,
                Duration.ofSeconds(3));
        assertEquals(EngineConfig.UNLIMITED_JOBS, nine.maxConcurrentJobs());
        assertEquals(EngineConfig.DEFAULT_STALL_WARNING, nine.stallWarning());
        assertEquals(EngineConfig.UNLIMITED_JOBS, ten.maxConcurrentJobs());
        assertEquals(new EngineConfig(50, 3, 30, Duration.ofMillis(7), Duration.ofSeconds(9), 11, 4, 0.5, false,
                Duration.ofSeconds(3), 0), ten);
    }

    @Test
    void maxConcurrentJobsTakesPartInEqualityAndToString() {
        EngineConfig capped = EngineConfig.builder().maxConcurrentJobs(32).build();
        assertFalse(capped.equals(EngineConfig.defaults()));
        assertFalse(capped.toString().equals(EngineConfig.defaults().toString()));
        assertEquals(capped, EngineConfig.builder().maxConcurrentJobs(32).build());
        assertTrue(capped.toString().endsWith(", maxConcurrentJobs=32]"), capped.toString());
        assertTrue(EngineConfig.defaults().toString().contains("maxConcurrentJobs=0"),
                EngineConfig.defaults().toString());
        assertEquals(capped, capped.toBuilder().build());
        assertEquals(EngineConfig.defaults(), capped.toBuilder().maxConcurrentJobs(0).build());
    }

    @Test
    void toBuilderStartsFromThisConfigAndLeavesItUnchanged() {
        EngineConfig original = EngineConfig.builder().maxFailures(9).ordered(false).build();
        EngineConfig changed = original.toBuilder().refusedDelay(Duration.ofSeconds(1)).build();
        assertEquals(9, changed.maxFailures());
        assertFalse(changed.ordered());
        assertEquals(Duration.ofSeconds(1), changed.refusedDelay());
        assertEquals(Duration.ofMillis(100), original.refusedDelay());
        assertEquals(original, original.toBuilder().build());
        assertNotSame(original.toBuilder(), original.toBuilder());
    }

    @Test
    void theBoundsThemselvesAreAccepted() {
        EngineConfig c = EngineConfig.builder().launchWindowPercent(1).launchWindowMin(1).launchWindowMax(1)
                .refusedDelay(Duration.ZERO).failureDelay(Duration.ZERO).maxFailures(1).maxExecutionTimeouts(1)
                .lookaheadFactor(Double.MIN_VALUE).maxConcurrentJobs(1).build();
        assertEquals(1, c.launchWindowMax());
        assertEquals(1, c.maxConcurrentJobs());
        assertEquals(Integer.MAX_VALUE,
                EngineConfig.builder().maxConcurrentJobs(Integer.MAX_VALUE).build().maxConcurrentJobs());
        assertEquals(100, EngineConfig.builder().launchWindowPercent(100).build().launchWindowPercent());
        assertEquals(7, EngineConfig.builder().launchWindowMin(7).launchWindowMax(7).build().launchWindowMin());
    }

    static Stream<Arguments> badFieldValues() {
        return Stream.of(
                bad("launchWindowPercent", "0", b -> b.launchWindowPercent(0)),
                bad("launchWindowPercent", "101", b -> b.launchWindowPercent(101)),
                bad("launchWindowPercent", "-20", b -> b.launchWindowPercent(-20)),
                bad("launchWindowMin", "0", b -> b.launchWindowMin(0)),
                bad("launchWindowMin", "-1", b -> b.launchWindowMin(-1)),
                bad("launchWindowMax", "0", b -> b.launchWindowMax(0)),
                bad("launchWindowMax", "3", b -> b.launchWindowMin(4).launchWindowMax(3)),
                bad("launchWindowMax", "15", b -> b.launchWindowMin(16)),
                bad("refusedDelay", "PT-0.001S", b -> b.refusedDelay(Duration.ofMillis(-1))),
                bad("failureDelay", "PT-5S", b -> b.failureDelay(Duration.ofSeconds(-5))),
                // Regression: delays past what the clock counts in nanoseconds (about 292 years) were accepted here and
                // then broke Engine.run with an ArithmeticException.
                bad("refusedDelay", "PT8760000H", b -> b.refusedDelay(Duration.ofDays(365_000))),
                bad("failureDelay", "PT2562047788015215H30M7S",
                        b -> b.failureDelay(Duration.ofSeconds(Long.MAX_VALUE))),
                bad("maxFailures", "0", b -> b.maxFailures(0)),
                bad("maxExecutionTimeouts", "0", b -> b.maxExecutionTimeouts(0)),
                bad("maxExecutionTimeouts", "-3", b -> b.maxExecutionTimeouts(-3)),
                bad("lookaheadFactor", "0.0", b -> b.lookaheadFactor(0)),
                bad("lookaheadFactor", "-1.5", b -> b.lookaheadFactor(-1.5)),
                bad("lookaheadFactor", "NaN", b -> b.lookaheadFactor(Double.NaN)),
                bad("lookaheadFactor", "Infinity", b -> b.lookaheadFactor(Double.POSITIVE_INFINITY)),
                bad("lookaheadFactor", "1.0E300", b -> b.lookaheadFactor(1e300)),
                bad("lookaheadFactor", "1000.5", b -> b.lookaheadFactor(1000.5)),
                bad("maxConcurrentJobs", "-1", b -> b.maxConcurrentJobs(-1)),
                bad("maxConcurrentJobs", "-2147483648", b -> b.maxConcurrentJobs(Integer.MIN_VALUE)));
    }

    private static Arguments bad(String field, String value, UnaryOperator<EngineConfig.Builder> change) {
        return Arguments.of(field, value, change);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("badFieldValues")
    void anOutOfRangeFieldIsRejectedNamingTheFieldAndTheValue(
            String field, String value, UnaryOperator<EngineConfig.Builder> change) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> change.apply(EngineConfig.builder()).build());
        assertTrue(e.getMessage().startsWith(field + " "), e.getMessage());
        assertTrue(e.getMessage().contains("was " + value), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"refusedDelay", "failureDelay"})
    void aNullDelayIsRejectedNamingTheField(String field) {
        EngineConfig.Builder b = field.equals("refusedDelay")
                ? EngineConfig.builder().refusedDelay(null)
                : EngineConfig.builder().failureDelay(null);
        NullPointerException e = assertThrows(NullPointerException.class, b::build);
        assertEquals(field, e.getMessage());
    }

    @Test
    void aRejectedBuildLeavesTheBuilderUsable() {
        EngineConfig.Builder b = EngineConfig.builder().maxFailures(0);
        assertThrows(IllegalArgumentException.class, b::build);
        assertEquals(3, b.maxFailures(3).build().maxFailures());
    }

    @Test
    void defaultsAreOneSharedImmutableValue() {
        assertSame(EngineConfig.defaults(), EngineConfig.defaults());
        assertEquals(EngineConfig.defaults(), EngineConfig.fromEnvironment(Map.of()));
    }

    @Test
    void stallWarningDefaultsTo30SecondsAndMustBePositive() {
        assertEquals(Duration.ofSeconds(30), EngineConfig.defaults().stallWarning());
        assertEquals(Duration.ofSeconds(5), EngineConfig.builder().stallWarning(Duration.ofSeconds(5)).build()
                .stallWarning());
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofMillis(-1)}) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> EngineConfig.builder().stallWarning(bad).build());
            assertEquals("stallWarning must be > 0, was " + bad, e.getMessage());
        }
        assertEquals("stallWarning", org.junit.jupiter.api.Assertions.assertThrows(NullPointerException.class,
                () -> EngineConfig.builder().stallWarning(null).build()).getMessage());
    }
}
