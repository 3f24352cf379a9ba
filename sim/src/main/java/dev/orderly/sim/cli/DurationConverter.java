package dev.orderly.sim.cli;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Reads a duration option written as a number and a unit: {@code 250ms}, {@code 2s}, {@code 1.5s}, {@code 2m};
 * {@code 0} alone is zero. picocli turns the exception into a one-line error naming the option.
 */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (v.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = FORM.matcher(v);
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a duration; write it like 250ms, 2s, 1.5s or 2m");
        }
        BigDecimal amount = new BigDecimal(m.group(1));
        long nanosPerUnit = switch (m.group(2)) {
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        };
        BigDecimal nanos = amount.multiply(BigDecimal.valueOf(nanosPerUnit));
        if (nanos.compareTo(BigDecimal.valueOf(Duration.ofDays(365).toNanos())) > 0) {
            throw new CommandLine.TypeConversionException("'" + value + "' is longer than a year");
        }
        return Duration.ofNanos(nanos.longValue());
    }

    /** Writes a duration the way this converter reads it. */
    static String format(Duration d) {
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
