package dev.orderly.api;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/**
 * Parses durations written the way Go's {@code time.ParseDuration} writes them: a sequence of decimal numbers, each
 * with a unit ({@code ns}, {@code us}, {@code µs}, {@code ms}, {@code s}, {@code m}, {@code h}), such as {@code 100ms},
 * {@code 5s} or {@code 1m30s}, with an optional sign; {@code 0} alone is also accepted. The environment variables this
 * library reads were named by a Go service, so their values are written this way; public so that a command line that
 * also takes durations reads them exactly as the environment does.
 *
 * <p>This class is stateless and thread-safe.
 */
public final class GoDuration {

    private static final Map<String, Long> NANOS_PER_UNIT = Map.of(
            "ns", 1L,
            "us", 1_000L,
            "\u00b5s", 1_000L, // micro sign, as Go's Duration.String writes it
            "\u03bcs", 1_000L, // Greek small letter mu, which Go accepts too
            "ms", 1_000_000L,
            "s", 1_000_000_000L,
            "m", 60_000_000_000L,
            "h", 3_600_000_000_000L);

    private GoDuration() {
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException if {@code text} is not a Go duration; the message says why
     */
    public static Duration parse(String text) {
        String s = text.strip();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty duration");
        }
        boolean negative = false;
        int i = 0;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        if (s.substring(i).equals("0")) {
            return Duration.ZERO;
        }
        if (i == s.length()) {
            throw new IllegalArgumentException("no number in '" + text + "'");
        }
        BigDecimal totalNanos = BigDecimal.ZERO;
        while (i < s.length()) {
            int numberStart = i;
            while (i < s.length() && (isAsciiDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            String number = s.substring(numberStart, i);
            if (number.isEmpty() || number.equals(".") || number.indexOf('.') != number.lastIndexOf('.')) {
                throw new IllegalArgumentException("expected a number at position " + numberStart + " of '" + text + "'");
            }
            int unitStart = i;
            while (i < s.length() && !isAsciiDigit(s.charAt(i)) && s.charAt(i) != '.') {
                i++;
            }
            String unit = s.substring(unitStart, i);
            Long nanosPerUnit = NANOS_PER_UNIT.get(unit);
            if (nanosPerUnit == null) {
                throw new IllegalArgumentException(unit.isEmpty()
                        ? "missing unit after '" + number + "' in '" + text + "' (use ns, us, ms, s, m or h)"
                        : "unknown unit '" + unit + "' in '" + text + "' (use ns, us, ms, s, m or h)");
            }
            totalNanos = totalNanos.add(new BigDecimal(number).multiply(BigDecimal.valueOf(nanosPerUnit)));
        }
        if (totalNanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("duration '" + text + "' is too long");
        }
        long nanos = totalNanos.longValue();
        return Duration.ofNanos(negative ? -nanos : nanos);
    }

    // Only 0-9, as in Go: Character.isDigit (and BigDecimal) would read other scripts' digits as numbers.
    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
