package dev.orderly.api;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How an engine launches and retries jobs. Immutable; build one with {@link #builder()}, start from
 * {@link #defaults()}, or read it from the environment with {@link #fromEnvironment(Map)}.
 *
 * <table>
 *   <caption>Fields, defaults and environment variables</caption>
 *   <tr><th>field</th><th>default</th><th>variable</th></tr>
 *   <tr><td>launchWindowPercent</td><td>20 (1..100)</td><td>{@code SUBSTREAMS_WORKER_LAUNCH_WINDOW_PERCENT}</td></tr>
 *   <tr><td>launchWindowMin</td><td>2 (&gt;= 1)</td><td>—</td></tr>
 *   <tr><td>launchWindowMax</td><td>15 (&gt;= min)</td><td>{@code SUBSTREAMS_WORKER_LAUNCH_WINDOW_MAX}</td></tr>
 *   <tr><td>refusedDelay</td><td>100 ms (&gt;= 0)</td><td>{@code SUBSTREAMS_WORKER_OVERLOADED_RETRY_DELAY}</td></tr>
 *   <tr><td>failureDelay</td><td>5 s (&gt;= 0)</td><td>{@code SUBSTREAMS_WORKER_FAILED_RETRY_DELAY}</td></tr>
 *   <tr><td>maxFailures</td><td>5 (&gt;= 1)</td><td>{@code SUBSTREAMS_WORKER_MAX_RETRIES}</td></tr>
 *   <tr><td>maxExecutionTimeouts</td><td>2 (&gt;= 1)</td><td>{@code SUBSTREAMS_WORKER_MAX_TIMEOUT_RETRIES}</td></tr>
 *   <tr><td>lookaheadFactor</td><td>2.0 (&gt; 0, &lt;= 1000)</td><td>{@code ORDERLY_LOOKAHEAD_FACTOR}</td></tr>
 *   <tr><td>ordered</td><td>true</td><td>{@code ORDERLY_ORDERED_LAUNCH}</td></tr>
 *   <tr><td>stallWarning</td><td>30 s (&gt; 0)</td><td>{@code ORDERLY_STALL_WARNING}</td></tr>
 *   <tr><td>maxConcurrentJobs</td><td>0 = unlimited (&gt;= 0)</td><td>{@code SUBSTREAMS_TIER1_MAX_SUBREQUESTS}</td></tr>
 * </table>
 *
 * @param launchWindowPercent the launch window as a percentage of the request's workers
 * @param launchWindowMin the smallest launch window
 * @param launchWindowMax the largest launch window
 * @param refusedDelay how long a job waits to dial again after it was refused or the fleet was unreachable
 * @param failureDelay how long a job waits to dial again after it got in and failed
 * @param maxFailures after this many retryable failures of one unit the request fails
 * @param maxExecutionTimeouts after this many execution timeouts of one unit the request fails
 * @param lookaheadFactor the scheduler keeps at most {@code ceil(lookaheadFactor * workers)} segments ahead of the
 *     segment the client is reading; at most {@link #MAX_LOOKAHEAD_FACTOR}
 * @param ordered true for ordered launch through the launch queue; false for the unordered baseline, in which every
 *     refused job redials on its own after {@code refusedDelay}
 * @param stallWarning a request that has heard nothing but REFUSED or UNREACHABLE for this long (from its first dial,
 *     or from the first of them after a dial last got in) logs one WARN naming the last status and how many dials it
 *     made
 * @param maxConcurrentJobs the most jobs alive at once across all the requests of one engine, shared fairly among
 *     them (a freed place goes to the waiting request with the fewest alive jobs); {@link #UNLIMITED_JOBS} (0) for no
 *     cap beyond each request's own {@code workers}. A job is alive from the moment its request's scheduler hands it
 *     out to be started until its thread has reported its end: queued, dialing, running or waiting to retry
 */
public record EngineConfig(
        int launchWindowPercent,
        int launchWindowMin,
        int launchWindowMax,
        Duration refusedDelay,
        Duration failureDelay,
        int maxFailures,
        int maxExecutionTimeouts,
        double lookaheadFactor,
        boolean ordered,
        Duration stallWarning,
        int maxConcurrentJobs) {

    /** Environment variable for {@code launchWindowPercent}. */
    public static final String ENV_LAUNCH_WINDOW_PERCENT = "SUBSTREAMS_WORKER_LAUNCH_WINDOW_PERCENT";
    /** Environment variable for {@code launchWindowMax}. */
    public static final String ENV_LAUNCH_WINDOW_MAX = "SUBSTREAMS_WORKER_LAUNCH_WINDOW_MAX";
    /** Environment variable for {@code refusedDelay}, a Go-style duration such as {@code 100ms}. */
    public static final String ENV_REFUSED_DELAY = "SUBSTREAMS_WORKER_OVERLOADED_RETRY_DELAY";
    /** Environment variable for {@code failureDelay}, a Go-style duration such as {@code 5s}. */
    public static final String ENV_FAILURE_DELAY = "SUBSTREAMS_WORKER_FAILED_RETRY_DELAY";
    /** Environment variable for {@code maxFailures}. */
    public static final String ENV_MAX_FAILURES = "SUBSTREAMS_WORKER_MAX_RETRIES";
    /** Environment variable for {@code maxExecutionTimeouts}. */
    public static final String ENV_MAX_EXECUTION_TIMEOUTS = "SUBSTREAMS_WORKER_MAX_TIMEOUT_RETRIES";
    /** Environment variable for {@code lookaheadFactor}. */
    public static final String ENV_LOOKAHEAD_FACTOR = "ORDERLY_LOOKAHEAD_FACTOR";
    /** Environment variable for {@code ordered}: {@code true} or {@code false}. */
    public static final String ENV_ORDERED_LAUNCH = "ORDERLY_ORDERED_LAUNCH";
    /** Environment variable for {@code stallWarning}, a Go-style duration such as {@code 30s}. */
    public static final String ENV_STALL_WARNING = "ORDERLY_STALL_WARNING";
    /** Environment variable for {@code maxConcurrentJobs}: a whole number, {@code 0} for unlimited. */
    public static final String ENV_MAX_CONCURRENT_JOBS = "SUBSTREAMS_TIER1_MAX_SUBREQUESTS";

    /** The default {@code stallWarning}. */
    public static final Duration DEFAULT_STALL_WARNING = Duration.ofSeconds(30);

    /** The {@code maxConcurrentJobs} that means no engine-wide cap, the default. */
    public static final int UNLIMITED_JOBS = 0;

    /**
     * The longest delay: what the engine's clock counts in nanoseconds (a {@code long}, about 292 years). A delay past
     * it can not be waited for; it is a typo, not a setting.
     */
    // Before DEFAULTS, whose construction checks its delays against it.
    static final Duration MAX_DELAY = Duration.ofNanos(Long.MAX_VALUE);

    private static final EngineConfig DEFAULTS = new EngineConfig(
            20, 2, 15, Duration.ofMillis(100), Duration.ofSeconds(5), 5, 2, 2.0, true, DEFAULT_STALL_WARNING,
            UNLIMITED_JOBS);

    /**
     * A configuration with the {@linkplain #DEFAULT_STALL_WARNING default stallWarning} (30 s): the fields of the
     * table above but the last, as before {@code stallWarning} existed.
     *
     * @throws NullPointerException if a duration is null
     * @throws IllegalArgumentException naming the field and the value when a value is out of range
     */
    public EngineConfig(int launchWindowPercent, int launchWindowMin, int launchWindowMax, Duration refusedDelay,
            Duration failureDelay, int maxFailures, int maxExecutionTimeouts, double lookaheadFactor,
            boolean ordered) {
        this(launchWindowPercent, launchWindowMin, launchWindowMax, refusedDelay, failureDelay, maxFailures,
                maxExecutionTimeouts, lookaheadFactor, ordered, DEFAULT_STALL_WARNING);
    }

    /**
     * A configuration with no engine-wide cap ({@code maxConcurrentJobs} = {@link #UNLIMITED_JOBS}): the fields of
     * the table above but the last, as before {@code maxConcurrentJobs} existed.
     *
     * @throws NullPointerException if a duration is null
     * @throws IllegalArgumentException naming the field and the value when a value is out of range
     */
    public EngineConfig(int launchWindowPercent, int launchWindowMin, int launchWindowMax, Duration refusedDelay,
            Duration failureDelay, int maxFailures, int maxExecutionTimeouts, double lookaheadFactor,
            boolean ordered, Duration stallWarning) {
        this(launchWindowPercent, launchWindowMin, launchWindowMax, refusedDelay, failureDelay, maxFailures,
                maxExecutionTimeouts, lookaheadFactor, ordered, stallWarning, UNLIMITED_JOBS);
    }

    /**
     * @throws NullPointerException if a duration is null
     * @throws IllegalArgumentException naming the field and the value when a value is out of range
     */
    public EngineConfig {
        Objects.requireNonNull(refusedDelay, "refusedDelay");
        Objects.requireNonNull(failureDelay, "failureDelay");
        Objects.requireNonNull(stallWarning, "stallWarning");
        checkPercent("launchWindowPercent", launchWindowPercent, launchWindowPercent);
        checkAtLeastOne("launchWindowMin", launchWindowMin, launchWindowMin);
        checkAtLeastOne("launchWindowMax", launchWindowMax, launchWindowMax);
        if (launchWindowMax < launchWindowMin) {
            throw new IllegalArgumentException("launchWindowMax must be >= launchWindowMin ("
                    + launchWindowMin + "), was " + launchWindowMax);
        }
        checkDelay("refusedDelay", refusedDelay, refusedDelay);
        checkDelay("failureDelay", failureDelay, failureDelay);
        checkAtLeastOne("maxFailures", maxFailures, maxFailures);
        checkAtLeastOne("maxExecutionTimeouts", maxExecutionTimeouts, maxExecutionTimeouts);
        checkLookaheadFactor("lookaheadFactor", lookaheadFactor, lookaheadFactor);
        checkPositive("stallWarning", stallWarning, stallWarning);
        checkJobCap("maxConcurrentJobs", maxConcurrentJobs, maxConcurrentJobs);
    }

    /** The largest {@code lookaheadFactor}: segments of look-ahead per worker. */
    public static final double MAX_LOOKAHEAD_FACTOR = 1000;

    /** The defaults of the table above. */
    public static EngineConfig defaults() {
        return DEFAULTS;
    }

    /** A builder that starts from the defaults. */
    public static Builder builder() {
        return new Builder(DEFAULTS);
    }

    /** A builder that starts from this configuration. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Reads the variables of the table above from {@code env} (usually {@code System.getenv()}); a variable that is
     * absent keeps its default.
     *
     * @throws IllegalArgumentException naming the variable and its value when a value is unparsable, empty or out of
     *     range; a bad value is never replaced by the default
     */
    public static EngineConfig fromEnvironment(Map<String, String> env) {
        return EngineEnvironment.read(env);
    }

    /**
     * One sentence for each variable of {@code env} that looks meant for Orderly but is not one it reads, naming the
     * closest one it does read: every {@code ORDERLY_*} variable it does not know, and a {@code SUBSTREAMS_*} one
     * within a few edits of a known name (other programs use that prefix too); either prefix in any case, since a
     * known name in the wrong case is not read. Such a variable is not an error,
     * since {@link #fromEnvironment} never reads it; the caller shows these where a person will see them (the engine
     * logs them at WARN, the simulator prints them).
     *
     * @return e.g. {@code SUBSTREAMS_WORKER_MAXRETRIES is not a variable Orderly reads; did you mean
     *     SUBSTREAMS_WORKER_MAX_RETRIES?}, in the order of the names; empty when there is nothing to say
     */
    public static List<String> environmentWarnings(Map<String, String> env) {
        return EnvironmentNames.warnings(env.keySet());
    }

    // The range checks name the field or variable and show the value: as given for a field, as written (quoted) for
    // a variable, so that "-1s" is reported as '-1s' and not as the parsed PT-1S.
    static int checkPercent(String name, int value, Object shown) {
        if (value < 1 || value > 100) {
            throw new IllegalArgumentException(name + " must be between 1 and 100, was " + shown);
        }
        return value;
    }

    static int checkAtLeastOne(String name, int value, Object shown) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1, was " + shown);
        }
        return value;
    }

    static int checkJobCap(String name, int value, Object shown) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 1, or 0 for unlimited, was " + shown);
        }
        return value;
    }

    static Duration checkNotNegative(String name, Duration value, Object shown) {
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + " must be >= 0, was " + shown);
        }
        return value;
    }

    static Duration checkDelay(String name, Duration value, Object shown) {
        checkNotNegative(name, value, shown);
        if (value.compareTo(MAX_DELAY) > 0) {
            throw new IllegalArgumentException(name + " must be at most " + MAX_DELAY
                    + " (about 292 years, the most nanoseconds the clock counts), was " + shown);
        }
        return value;
    }

    static double checkLookaheadFactor(String name, double value, Object shown) {
        checkPositive(name, value, shown);
        if (value > MAX_LOOKAHEAD_FACTOR) {
            // The scheduler keeps state for every segment of the look-ahead: a factor without a bound is an
            // OutOfMemoryError waiting for a long request. More than this many segments per worker buys nothing.
            throw new IllegalArgumentException(name + " must be <= " + (long) MAX_LOOKAHEAD_FACTOR
                    + " (segments of look-ahead per worker), was " + shown);
        }
        return value;
    }

    static Duration checkPositive(String name, Duration value, Object shown) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be > 0, was " + shown);
        }
        return value;
    }

    static double checkPositive(String name, double value, Object shown) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be a finite number > 0, was " + shown);
        }
        return value;
    }

    /** Builds an {@link EngineConfig}; every value is checked by {@link #build()}. Not thread-safe. */
    public static final class Builder {
        private int launchWindowPercent;
        private int launchWindowMin;
        private int launchWindowMax;
        private Duration refusedDelay;
        private Duration failureDelay;
        private int maxFailures;
        private int maxExecutionTimeouts;
        private double lookaheadFactor;
        private boolean ordered;
        private Duration stallWarning;
        private int maxConcurrentJobs;

        private Builder(EngineConfig from) {
            launchWindowPercent = from.launchWindowPercent;
            launchWindowMin = from.launchWindowMin;
            launchWindowMax = from.launchWindowMax;
            refusedDelay = from.refusedDelay;
            failureDelay = from.failureDelay;
            maxFailures = from.maxFailures;
            maxExecutionTimeouts = from.maxExecutionTimeouts;
            lookaheadFactor = from.lookaheadFactor;
            ordered = from.ordered;
            stallWarning = from.stallWarning;
            maxConcurrentJobs = from.maxConcurrentJobs;
        }

        /** The launch window as a percentage of the workers, 1..100. */
        public Builder launchWindowPercent(int percent) {
            this.launchWindowPercent = percent;
            return this;
        }

        /** The smallest launch window, {@code >= 1}. */
        public Builder launchWindowMin(int min) {
            this.launchWindowMin = min;
            return this;
        }

        /** The largest launch window, {@code >= launchWindowMin}. */
        public Builder launchWindowMax(int max) {
            this.launchWindowMax = max;
            return this;
        }

        /** The delay before a refused job dials again, {@code >= 0} and at most about 292 years. */
        public Builder refusedDelay(Duration delay) {
            this.refusedDelay = delay;
            return this;
        }

        /** The delay before a failed job dials again, {@code >= 0} and at most about 292 years. */
        public Builder failureDelay(Duration delay) {
            this.failureDelay = delay;
            return this;
        }

        /** Retryable failures of one unit after which the request fails, {@code >= 1}. */
        public Builder maxFailures(int max) {
            this.maxFailures = max;
            return this;
        }

        /** Execution timeouts of one unit after which the request fails, {@code >= 1}. */
        public Builder maxExecutionTimeouts(int max) {
            this.maxExecutionTimeouts = max;
            return this;
        }

        /**
         * The look-ahead, as a multiple of the workers, {@code > 0} and at most
         * {@link EngineConfig#MAX_LOOKAHEAD_FACTOR} (1000).
         */
        public Builder lookaheadFactor(double factor) {
            this.lookaheadFactor = factor;
            return this;
        }

        /** True for ordered launch, false for the unordered baseline. */
        public Builder ordered(boolean ordered) {
            this.ordered = ordered;
            return this;
        }

        /**
         * How long a request may hear nothing but REFUSED or UNREACHABLE before it logs one WARN, {@code > 0}.
         */
        public Builder stallWarning(Duration warning) {
            this.stallWarning = warning;
            return this;
        }

        /**
         * The most jobs alive at once across all the requests of the engine, {@code >= 1}, or
         * {@link #UNLIMITED_JOBS} (0) for no cap.
         */
        public Builder maxConcurrentJobs(int max) {
            this.maxConcurrentJobs = max;
            return this;
        }

        /**
         * @throws IllegalArgumentException naming the field and the value when a value is out of range
         * @throws NullPointerException if a duration is null
         */
        public EngineConfig build() {
            return new EngineConfig(launchWindowPercent, launchWindowMin, launchWindowMax, refusedDelay, failureDelay,
                    maxFailures, maxExecutionTimeouts, lookaheadFactor, ordered, stallWarning, maxConcurrentJobs);
        }
    }
}
