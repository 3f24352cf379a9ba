package dev.orderly.sim.cli;

import dev.orderly.api.GoDuration;
import java.math.BigDecimal;
import java.time.Duration;
import picocli.CommandLine;

/**
 * Reads a duration option with the same parser as the engine's environment variables ({@link GoDuration}): a number
 * and a unit, or several, such as {@code 250ms}, {@code 1.5s}, {@code 1m30s} or {@code 100us}; {@code 0} alone is
 * zero. A sign is read too; each option checks its own range. picocli turns the exception into a one-line error
 * naming the option.
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final Duration LONGEST = Duration.ofDays(365);

    @Override
    public Duration convert(String value) {
        Duration d;
        try {
            d = GoDuration.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (" + e.getMessage()
                    + "); write it like 250ms, 1.5s or 1m30s");
        }
        if (d.abs().compareTo(LONGEST) > 0) {
            throw new CommandLine.TypeConversionException("'" + value + "' is longer than a year");
        }
        return d;
    }

    /** Writes a duration the way this converter reads it. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms == 0 && !d.isZero()) {
            return d.toNanos() + "ns";
        }
        if (ms % 1000 == 0) {
            return (ms / 1000) + "s";
        }
        return ms < 1000 ? ms + "ms" : BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString() + "s";
    }
}
