package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DurationConverter#format} cut off whatever was under a millisecond: {@code --job-duration=2.5ms} was written
 * {@code 2ms}, {@code 1.2345s} {@code 1.234s}, and {@code --client-time=-1.5ms} was refused as "was -1ms". Headings
 * and messages showed the cut value, and {@code orderly fleet} passed it to every tier2 process
 * ({@code --job-duration=2ms}), whose jobs then ran shorter than the scenario said. A duration is now written so that
 * reading it back gives the same duration.
 */
@Timeout(30)
class ADurationIsWrittenBackExactlyTest {

    private final DurationConverter converter = new DurationConverter();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2.5ms", "1500us", "1.2345s", "1.0005s", "-1.5ms", "500us", "250ms", "1.5s", "1m30s",
        "0", "365h"})
    void readingBackWhatIsWrittenGivesTheSameDuration(String given) {
        Duration d = converter.convert(given);
        String written = DurationConverter.format(d);
        assertEquals(d, converter.convert(written), given + " was written " + written);
    }

    @Test
    void theWholeMillisecondsAndSecondsAreWrittenAsBefore() {
        assertEquals("1.5s", DurationConverter.format(Duration.ofMillis(1500)));
        assertEquals("250ms", DurationConverter.format(Duration.ofMillis(250)));
        assertEquals("2s", DurationConverter.format(Duration.ofSeconds(2)));
        assertEquals("0s", DurationConverter.format(Duration.ZERO));
    }

    @Test
    void aNegativeClientTimeIsRefusedWithTheValueGiven() {
        CliRun o = CliRun.of("--client-time=-1.5ms");
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("orderly: --client-time must be >= 0, was -1.5ms (see orderly --help)", o.line());
    }
}
