package dev.orderly.api;

import static dev.orderly.api.EngineConfig.ENV_FAILURE_DELAY;
import static dev.orderly.api.EngineConfig.ENV_LAUNCH_WINDOW_MAX;
import static dev.orderly.api.EngineConfig.ENV_LAUNCH_WINDOW_PERCENT;
import static dev.orderly.api.EngineConfig.ENV_LOOKAHEAD_FACTOR;
import static dev.orderly.api.EngineConfig.ENV_MAX_CONCURRENT_JOBS;
import static dev.orderly.api.EngineConfig.ENV_MAX_EXECUTION_TIMEOUTS;
import static dev.orderly.api.EngineConfig.ENV_MAX_FAILURES;
import static dev.orderly.api.EngineConfig.ENV_ORDERED_LAUNCH;
import static dev.orderly.api.EngineConfig.ENV_REFUSED_DELAY;
import static dev.orderly.api.EngineConfig.ENV_STALL_WARNING;
import static dev.orderly.api.EngineConfig.checkAtLeastOne;
import static dev.orderly.api.EngineConfig.checkJobCap;
import static dev.orderly.api.EngineConfig.checkLookaheadFactor;
import static dev.orderly.api.EngineConfig.checkDelay;
import static dev.orderly.api.EngineConfig.checkPercent;
import static dev.orderly.api.EngineConfig.checkPositive;

import java.math.BigInteger;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Reads an {@link EngineConfig} from environment variables (the table on {@link EngineConfig}); the implementation of
 * {@link EngineConfig#fromEnvironment(Map)}.
 *
 * <p>A variable that is absent keeps its default. A value that is present is used or rejected, never replaced by the
 * default: an unparsable, empty or out-of-range value is an {@link IllegalArgumentException} whose message starts
 * with the variable's name and shows the value as written (quoted), so that the user can find it in their
 * environment. Stateless.
 */
final class EngineEnvironment {

    private EngineEnvironment() {
    }

    /** See {@link EngineConfig#fromEnvironment(Map)}. */
    static EngineConfig read(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        EngineConfig defaults = EngineConfig.defaults();
        EngineConfig.Builder b = EngineConfig.builder();
        String v;
        if ((v = env.get(ENV_LAUNCH_WINDOW_PERCENT)) != null) {
            b.launchWindowPercent(
                    checkPercent(ENV_LAUNCH_WINDOW_PERCENT, parseInt(ENV_LAUNCH_WINDOW_PERCENT, v), quoted(v)));
        }
        if ((v = env.get(ENV_LAUNCH_WINDOW_MAX)) != null) {
            int max = checkAtLeastOne(ENV_LAUNCH_WINDOW_MAX, parseInt(ENV_LAUNCH_WINDOW_MAX, v), quoted(v));
            if (max < defaults.launchWindowMin()) {
                throw new IllegalArgumentException(ENV_LAUNCH_WINDOW_MAX + " must be >= launchWindowMin ("
                        + defaults.launchWindowMin() + "), was '" + v + "'");
            }
            b.launchWindowMax(max);
        }
        if ((v = env.get(ENV_REFUSED_DELAY)) != null) {
            b.refusedDelay(checkDelay(ENV_REFUSED_DELAY, parseDuration(ENV_REFUSED_DELAY, v), quoted(v)));
        }
        if ((v = env.get(ENV_FAILURE_DELAY)) != null) {
            b.failureDelay(checkDelay(ENV_FAILURE_DELAY, parseDuration(ENV_FAILURE_DELAY, v), quoted(v)));
        }
        if ((v = env.get(ENV_MAX_FAILURES)) != null) {
            b.maxFailures(checkAtLeastOne(ENV_MAX_FAILURES, parseInt(ENV_MAX_FAILURES, v), quoted(v)));
        }
        if ((v = env.get(ENV_MAX_EXECUTION_TIMEOUTS)) != null) {
            b.maxExecutionTimeouts(
                    checkAtLeastOne(ENV_MAX_EXECUTION_TIMEOUTS, parseInt(ENV_MAX_EXECUTION_TIMEOUTS, v), quoted(v)));
        }
        if ((v = env.get(ENV_LOOKAHEAD_FACTOR)) != null) {
            b.lookaheadFactor(
                    checkLookaheadFactor(ENV_LOOKAHEAD_FACTOR, parseDouble(ENV_LOOKAHEAD_FACTOR, v), quoted(v)));
        }
        if ((v = env.get(ENV_ORDERED_LAUNCH)) != null) {
            b.ordered(parseBoolean(ENV_ORDERED_LAUNCH, v));
        }
        if ((v = env.get(ENV_STALL_WARNING)) != null) {
            b.stallWarning(checkPositive(ENV_STALL_WARNING, parseDuration(ENV_STALL_WARNING, v), quoted(v)));
        }
        if ((v = env.get(ENV_MAX_CONCURRENT_JOBS)) != null) {
            b.maxConcurrentJobs(
                    checkJobCap(ENV_MAX_CONCURRENT_JOBS, parseInt(ENV_MAX_CONCURRENT_JOBS, v), quoted(v)));
        }
        return b.build();
    }

    /** A whole number in 0-9: {@code Integer.parseInt} alone would read any script's digits ({@code "\u0665"} as 5). */
    private static final Pattern WHOLE = Pattern.compile("[+-]?[0-9]+");

    private static int parseInt(String name, String value) {
        String digits = value.strip();
        if (!WHOLE.matcher(digits).matches()) {
            throw new IllegalArgumentException(name + " must be a whole number, was '" + value + "'");
        }
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            // A whole number in 0-9 that Integer.parseInt refuses is outside the int range, on one side or the other.
            String problem = new BigInteger(digits).signum() == 1 ? " is too large" : " is too small";
            throw new IllegalArgumentException(name + problem + ", was '" + value + "'", e);
        }
    }

    /** A decimal number as people write one: digits, a point, an exponent; not Java's {@code 2d} or {@code 0x1p1}. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private static double parseDouble(String name, String value) {
        String number = value.strip();
        if (!DECIMAL.matcher(number).matches()) {
            throw new IllegalArgumentException(name + " must be a number, was '" + value + "'");
        }
        return Double.parseDouble(number);
    }

    private static Duration parseDuration(String name, String value) {
        try {
            return GoDuration.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " must be a duration such as 100ms, 5s or 1m30s, was '"
                    + value + "': " + e.getMessage(), e);
        }
    }

    private static boolean parseBoolean(String name, String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false, was '" + value + "'");
        };
    }

    /** A value read from the environment, as written, for an error message. */
    private static String quoted(String value) {
        return "'" + value + "'";
    }
}
