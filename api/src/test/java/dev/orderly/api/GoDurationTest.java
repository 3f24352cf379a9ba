package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Durations are read the way Go's {@code time.ParseDuration} reads them. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class GoDurationTest {

    @ParameterizedTest(name = "{0} = {1} ns")
    @CsvSource(delimiter = '=', value = {
            "100ms = 100000000",
            "5s = 5000000000",
            "1m30s = 90000000000",
            "1.5s = 1500000000",
            "0 = 0",
            "-0 = 0",
            "+0 = 0",
            "0s = 0",
            "1h = 3600000000000",
            "2h45m = 9900000000000",
            "1h2m3s4ms5us6ns = 3723004005006",
            "300us = 300000",
            "300µs = 300000",
            "10ns = 10",
            ".5s = 500000000",
            "5.s = 5000000000",
            "1.5ns = 1",
            "+5s = 5000000000",
            "-5s = -5000000000",
            "' 250ms ' = 250000000",
            "9223372036854775807ns = 9223372036854775807",
    })
    void parsesGoDurations(String text, long nanos) {
        assertEquals(Duration.ofNanos(nanos), GoDuration.parse(text));
    }

    /** Regression: the Greek mu was an unknown unit, though Go accepts it for microseconds. */
    @Test
    void bugGreekMuWasAnUnknownUnit() {
        // Go accepts both U+00B5 (micro sign) and U+03BC (Greek small letter mu) for microseconds.
        assertEquals(Duration.ofNanos(300_000), GoDuration.parse("300\u03bcs"));
    }

    @ParameterizedTest(name = "rejects \"{0}\"")
    @ValueSource(strings = {
            "", " ", "5", "00", "1m30", "s", "ms", "-", "+", ".", ".s", "5..s", "1.2.3s", "--5s", "+-5s",
            "5 s", "5x", "5sec", "1e3s", "5S", "5MS", "1h 30m", "99999999999h", "9223372036854775808ns",
    })
    void rejectsWhatGoRejects(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text));
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "a message that says why");
    }

    /**
     * Regression: {@code Character.isDigit} and {@code BigDecimal} accept every Unicode digit, so {@code "\u0665s"}
     * (Arabic-Indic five) was read as 5 seconds; Go reads ASCII digits only.
     */
    @ParameterizedTest(name = "rejects \"{0}\"")
    @ValueSource(strings = {"\u0665s", "\uff15s", "1\u0660ms"})
    void bugNonAsciiDigitsWereReadAsNumbers(String text) {
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text));
    }

    @Test
    void namesTheUnknownUnit() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GoDuration.parse("5sec"));
        assertTrue(e.getMessage().contains("'sec'"), e.getMessage());
    }

    @Test
    void saysWhenTheUnitIsMissing() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GoDuration.parse("1m30"));
        assertTrue(e.getMessage().contains("missing unit after '30'"), e.getMessage());
    }
}
