package dev.orderly.tier2;

import dev.orderly.api.GoDuration;
import java.time.Duration;
import picocli.CommandLine;

/**
 * Reads a duration option with the parser of the engine's environment variables ({@link GoDuration}): {@code 250ms},
 * {@code 1.5s}, {@code 1m30s}; {@code 0} alone is zero. picocli turns the exception into a one-line error naming the
 * option.
 */
final class DurationOption implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        try {
            return GoDuration.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (" + e.getMessage()
                    + "); write it like 250ms, 1.5s or 1m30s");
        }
    }

    /** Writes a duration as a person reads it: {@code 10s}, {@code 250ms}. */
    static String format(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + "s" : ms + "ms";
    }
}
