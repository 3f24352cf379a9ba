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

    /**
     * Writes a duration the way this converter reads it, exactly: {@code convert(format(d))} is {@code d}. It cut
     * off what was under a millisecond ({@code 2.5ms} was written {@code 2ms}, {@code 1.2345s} {@code 1.234s}),
     * which headings and messages then showed and {@code orderly fleet} passed to its tier2 processes as their
     * job duration.
     */
    public static String format(Duration d) {
        long nanos;
        try {
            nanos = d.toNanos();
        } catch (ArithmeticException tooLong) { // over 292 years: no option or variable takes one
            return d.toSeconds() + "s";
        }
        if (nanos % 1_000_000_000L == 0) {
            return (nanos / 1_000_000_000L) + "s";
        }
        if (Math.abs(nanos) >= 1_000_000_000L) {
            return BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString() + "s";
        }
        if (Math.abs(nanos) >= 1_000_000L) {
            return BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + "ms";
        }
        return nanos + "ns";
    }
}
