package dev.orderly.sim.cli;

import dev.orderly.api.EngineConfig;
import dev.orderly.sim.fleet.FaultRates;
import dev.orderly.sim.fleet.FleetConfig;
import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.run.Scenario;
import dev.orderly.tier2.ParameterMessages;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The options that describe what to simulate: each tenant's request, the fleet, the client, the engine's
 * configuration, the faults, the seed and the time scale. {@link #toScenario} checks every value and names the option
 * (or environment variable) of the first bad one.
 *
 * <p>The engine's settings start from its environment variables ({@link EngineConfig#fromEnvironment}), as an
 * embedded engine's would; an option overrides its variable. {@code ORDERLY_ORDERED_LAUNCH} is read (a bad value is
 * still an error) but each run sets {@code ordered} itself: that is what {@code --strategy} compares.
 *
 * <p>An engine option is named after its {@code EngineConfig} field ({@code --launch-window-percent} for
 * {@code launchWindowPercent}), so that a setting has one name across the API, the command line and the docs; the
 * shorter spellings of earlier releases ({@code --window-percent}, {@code --window-max}, {@code --max-timeouts},
 * {@code --lookahead}) are still accepted.
 */
final class ScenarioOptions {

    /**
     * The fastest honest time scale on a 2-core machine. Measured with the default scenario ({@code --strategy=both}):
     * up to 10x the unordered run's dials and every figure stay put; from 30x the unordered baseline already sends a
     * fifth fewer dials (the machine can no longer redial every refused job on time), from 100x totals drift by a
     * quarter, at 1000x the table is meaningless. The cap leaves room for small scenarios and tests; a run that falls
     * behind is warned about whatever the scale.
     */
    static final double MAX_TIME_SCALE = 200;

    /**
     * The slowest time scale: a simulated second lasts at most a wall second. Below it a run only gets slower (at
     * 0.01 the default scenario would take over an hour, at 1e-9 for ever) and measures nothing real time does not.
     */
    static final double MIN_TIME_SCALE = 1;

    /** The rule of {@code --time-scale}, as every command that takes it says it. */
    static final String TIME_SCALE_RULE = ">= " + (int) MIN_TIME_SCALE + " and <= " + (int) MAX_TIME_SCALE;

    /** Whether {@code scale} is a time scale every command takes. */
    static boolean isTimeScale(double scale) {
        return scale >= MIN_TIME_SCALE && scale <= MAX_TIME_SCALE;
    }

    /**
     * The most segments the engine looks ahead, {@code ceil(lookaheadFactor * workers)}: it refuses a request whose
     * look-ahead is longer ({@link dev.orderly.api.RequestPlan}, 2^20).
     */
    static final long MAX_LOOKAHEAD = 1 << 20;

    /**
     * Refuses {@code workers} with the engine's look-ahead factor when their look-ahead is over {@link #MAX_LOOKAHEAD}:
     * each option in its range, the pair failed every request of every run, "engine error:
     * java.lang.IllegalArgumentException: the look-ahead ...", after the heading and the runs.
     */
    static void checkLookahead(CommandLine cl, Map<String, String> env, EngineConfig engine, int workers) {
        double segments = Math.ceil(engine.lookaheadFactor() * workers);
        if (segments > MAX_LOOKAHEAD) {
            CommandLine.ParseResult parsed = cl.getParseResult();
            String factor = parsed != null && parsed.hasMatchedOption("--lookahead-factor")
                    ? "--lookahead-factor=" + ParameterMessages.given(cl, "--lookahead-factor", "")
                    : EngineConfig.ENV_LOOKAHEAD_FACTOR + "=" + env.get(EngineConfig.ENV_LOOKAHEAD_FACTOR);
            throw new ParameterException(cl, String.format(Locale.ROOT, "--workers=%d with %s looks %.0f segments"
                    + " ahead, more than the engine's %d: lower one of them", workers, factor, segments,
                    MAX_LOOKAHEAD));
        }
    }

    /** The simulator's failure delay unless set: the engine's 5 s would make short simulated runs mostly waiting. */
    private static final Duration DEFAULT_FAILURE_DELAY = Duration.ofSeconds(1);

    @Option(names = "--segments", paramLabel = "N", defaultValue = "60",
            description = "Segments per tenant request (default: ${DEFAULT-VALUE}).")
    private long segments;

    @Option(names = "--stages", paramLabel = "N", defaultValue = "2",
            description = "Stages per segment (default: ${DEFAULT-VALUE}).")
    private int stages;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "20",
            description = "Workers per tenant request: its most jobs alive at once (default: ${DEFAULT-VALUE}).")
    private int workers;

    @Option(names = "--tenants", paramLabel = "N", defaultValue = "4",
            description = "Tenant requests sharing the fleet at once (default: ${DEFAULT-VALUE}).")
    private int tenants;

    @Option(names = "--instances", paramLabel = "N", defaultValue = "4",
            description = "Tier2 instances behind the load balancer (default: ${DEFAULT-VALUE}).")
    private int instances;

    @Option(names = "--slots", paramLabel = "N", defaultValue = "4",
            description = "Concurrent jobs per instance before it refuses (default: ${DEFAULT-VALUE}).")
    private int slots;

    @Option(names = "--job-duration", paramLabel = "DURATION", defaultValue = "2s",
            converter = DurationConverter.class,
            description = "Median run time of a job (default: ${DEFAULT-VALUE}).")
    private Duration jobDuration;

    @Option(names = "--job-spread", paramLabel = "SIGMA", defaultValue = "0.4",
            description = "Spread of job run times, log-normal sigma, 0..3; 0 = all equal (default: ${DEFAULT-VALUE}).")
    private double jobSpread;

    @Option(names = "--client-time", paramLabel = "DURATION", defaultValue = "500ms",
            converter = DurationConverter.class,
            description = "Time the client spends reading one segment (default: ${DEFAULT-VALUE}).")
    private Duration clientTime;

    @Option(names = "--refused-delay", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Engine: wait before a refused job dials again (default: 100ms, or"
                    + " $SUBSTREAMS_WORKER_OVERLOADED_RETRY_DELAY, read as simulated time).")
    private Duration refusedDelay;

    @Option(names = "--failure-delay", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Engine: wait before a failed job dials again (default: 1s, or"
                    + " $SUBSTREAMS_WORKER_FAILED_RETRY_DELAY, read as simulated time).")
    private Duration failureDelay;

    @Option(names = {"--launch-window-percent", "--window-percent"}, paramLabel = "P",
            description = "Engine: launch window as a percentage of the workers, 1..100 (default: 20, or"
                    + " $SUBSTREAMS_WORKER_LAUNCH_WINDOW_PERCENT).")
    private Integer windowPercent;

    @Option(names = {"--launch-window-max", "--window-max"}, paramLabel = "N",
            description = "Engine: largest launch window, >= 2 (default: 15, or $SUBSTREAMS_WORKER_LAUNCH_WINDOW_MAX).")
    private Integer windowMax;

    @Option(names = "--max-failures", paramLabel = "N",
            description = "Engine: retryable failures of one unit before its request fails (default: 5, or"
                    + " $SUBSTREAMS_WORKER_MAX_RETRIES).")
    private Integer maxFailures;

    @Option(names = {"--max-execution-timeouts", "--max-timeouts"}, paramLabel = "N",
            description = "Engine: execution timeouts of one unit before its request fails (default: 2, or"
                    + " $SUBSTREAMS_WORKER_MAX_TIMEOUT_RETRIES).")
    private Integer maxTimeouts;

    @Option(names = {"--lookahead-factor", "--lookahead"}, paramLabel = "X",
            description = "Engine: segments scheduled ahead of the client, as a multiple of the workers (default:"
                    + " 2.0, or $ORDERLY_LOOKAHEAD_FACTOR).")
    private Double lookahead;

    @Option(names = "--max-concurrent-jobs", paramLabel = "N",
            description = "Engine: the most jobs alive at once across all the tenants of one engine (each strategy"
                    + " has its own), shared fairly; 0 = unlimited (default: 0, or $SUBSTREAMS_TIER1_MAX_SUBREQUESTS).")
    private Integer maxConcurrentJobs;

    @Option(names = "--unreachable-rate", paramLabel = "P", defaultValue = "0.01",
            description = "Fault: probability a dial finds no healthy upstream, >= 0 and < 1 (at 1 no dial would ever"
                    + " get in) (default: ${DEFAULT-VALUE}).")
    private double unreachableRate;

    @Option(names = "--timeout-rate", paramLabel = "P", defaultValue = "0.005",
            description = "Fault: probability an admitted job runs past its deadline (default: ${DEFAULT-VALUE}).")
    private double timeoutRate;

    @Option(names = "--retryable-rate", paramLabel = "P", defaultValue = "0.01",
            description = "Fault: probability an admitted job fails with a retryable error (default: ${DEFAULT-VALUE}).")
    private double retryableRate;

    @Option(names = "--fatal-rate", paramLabel = "P", defaultValue = "0",
            description = "Fault: probability an admitted job fails fatally, failing its request"
                    + " (default: ${DEFAULT-VALUE}).")
    private double fatalRate;

    @Option(names = "--missing-output-rate", paramLabel = "P", defaultValue = "0.01",
            description = "Fault: probability a last-stage job succeeds but its output is missing"
                    + " (default: ${DEFAULT-VALUE}).")
    private double missingOutputRate;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
            description = "Seed of every random draw; the same seed gives the same fleet (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--time-scale", paramLabel = "X", defaultValue = "10",
            description = "Simulated seconds per wall-clock second, 1..200 (at 1 a simulated second lasts a wall"
                    + " second); past about 30 on 2 cores the unordered baseline can no longer redial on time"
                    + " (default: ${DEFAULT-VALUE}).")
    private double timeScale;

    /**
     * The scenario these options describe, with the engine's settings read from {@code env} first.
     *
     * @throws ParameterException naming the option or variable and its value when a value is out of range
     */
    Scenario toScenario(CommandLine cl, Map<String, String> env) {
        check(cl, "--segments", segments >= 1 && segments <= 100_000, segments, "between 1 and 100000");
        check(cl, "--stages", stages >= 1 && stages <= 16, stages, "between 1 and 16");
        check(cl, "--workers", workers >= 1 && workers <= 10_000, workers, "between 1 and 10000");
        check(cl, "--tenants", tenants >= 1 && tenants <= 1_000, tenants, "between 1 and 1000");
        check(cl, "--instances", instances >= 1 && instances <= 10_000, instances, "between 1 and 10000");
        check(cl, "--slots", slots >= 1 && slots <= 10_000, slots, "between 1 and 10000");
        check(cl, "--job-duration", jobDuration.isPositive(), DurationConverter.format(jobDuration), "> 0");
        check(cl, "--job-spread", jobSpread >= 0 && jobSpread <= 3, jobSpread, "between 0 and 3");
        // At 1 no dial ever gets in and every job redials for ever: the run would never end. The per-admission
        // rates may be 1: the engine's retry limits (and its re-run limit) then fail the request, which ends it.
        check(cl, "--unreachable-rate", unreachableRate >= 0 && unreachableRate < 1,
                written(cl, "--unreachable-rate", unreachableRate), ">= 0 and < 1");
        check(cl, "--timeout-rate", isRate(timeoutRate), written(cl, "--timeout-rate", timeoutRate),
                "between 0 and 1");
        check(cl, "--retryable-rate", isRate(retryableRate), written(cl, "--retryable-rate", retryableRate),
                "between 0 and 1");
        check(cl, "--fatal-rate", isRate(fatalRate), written(cl, "--fatal-rate", fatalRate), "between 0 and 1");
        check(cl, "--missing-output-rate", isRate(missingOutputRate),
                written(cl, "--missing-output-rate", missingOutputRate), "between 0 and 1");
        double perAdmission = timeoutRate + retryableRate + fatalRate + missingOutputRate;
        // With FaultRates' own tolerance: 0.01 + 0.55 + 0.34 + 0.1 is 1.0000000000000002 in doubles, and rates that
        // add up to exactly 1, as the help allows, were refused in those digits.
        if (perAdmission > 1 + 1e-9) {
            throw new ParameterException(cl, String.format(Locale.ROOT,
                    "--timeout-rate + --retryable-rate + --fatal-rate + --missing-output-rate must be <= 1, was %s",
                    perAdmission));
        }
        check(cl, "--time-scale", isTimeScale(timeScale), written(cl, "--time-scale", timeScale), TIME_SCALE_RULE);
        check(cl, "--client-time", !clientTime.isNegative(), DurationConverter.format(clientTime), ">= 0");
        EngineConfig engine = engine(cl, env);
        checkLookahead(cl, env, engine, workers);
        FaultRates faults = new FaultRates(unreachableRate, timeoutRate, retryableRate, fatalRate, missingOutputRate);
        FleetConfig fleet = new FleetConfig(instances, slots, jobDuration, jobSpread, faults, seed,
                new TimeScale(timeScale));
        try {
            return new Scenario(segments, stages, workers, tenants, fleet, clientTime, engine.refusedDelay(),
                    engine.failureDelay(), engine);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, e.getMessage());
        }
    }

    /** The engine's settings: its environment variables, then the options; delays in simulated time. */
    private EngineConfig engine(CommandLine cl, Map<String, String> env) {
        EngineConfig fromEnv;
        try {
            fromEnv = EngineConfig.fromEnvironment(env);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, "environment: " + e.getMessage());
        }
        EngineConfig.Builder b = fromEnv.toBuilder();
        if (!env.containsKey(EngineConfig.ENV_FAILURE_DELAY)) {
            b.failureDelay(DEFAULT_FAILURE_DELAY);
        }
        if (refusedDelay != null) {
            check(cl, "--refused-delay", !refusedDelay.isNegative(), DurationConverter.format(refusedDelay), ">= 0");
            b.refusedDelay(refusedDelay);
        }
        if (failureDelay != null) {
            check(cl, "--failure-delay", !failureDelay.isNegative(), DurationConverter.format(failureDelay), ">= 0");
            b.failureDelay(failureDelay);
        }
        if (windowPercent != null) {
            check(cl, "--launch-window-percent", windowPercent >= 1 && windowPercent <= 100, windowPercent,
                    "between 1 and 100");
            b.launchWindowPercent(windowPercent);
        }
        int min = fromEnv.launchWindowMin();
        if (windowMax != null) {
            check(cl, "--launch-window-max", windowMax >= min, windowMax, ">= " + min + " (the smallest window)");
            b.launchWindowMax(windowMax);
        }
        if (maxFailures != null) {
            check(cl, "--max-failures", maxFailures >= 1, maxFailures, ">= 1");
            b.maxFailures(maxFailures);
        }
        if (maxTimeouts != null) {
            check(cl, "--max-execution-timeouts", maxTimeouts >= 1, maxTimeouts, ">= 1");
            b.maxExecutionTimeouts(maxTimeouts);
        }
        if (lookahead != null) {
            check(cl, "--lookahead-factor", lookahead > 0 && lookahead <= 1000, lookahead, "> 0 and <= 1000");
            b.lookaheadFactor(lookahead);
        }
        if (maxConcurrentJobs != null) {
            check(cl, "--max-concurrent-jobs", maxConcurrentJobs >= 0, maxConcurrentJobs, ">= 1, or 0 for unlimited");
            b.maxConcurrentJobs(maxConcurrentJobs);
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, e.getMessage());
        }
    }

    private static void check(CommandLine cl, String option, boolean ok, Object value, String rule) {
        if (!ok) {
            throw new ParameterException(cl, option + " must be " + rule + ", was " + value);
        }
    }

    /**
     * {@code option}'s value as it was written, quoted: a double read back prints {@code 1.0} for {@code 1}, which is
     * not what the person typed. The default's value when the option was not given.
     */
    static String written(CommandLine cl, String option, Object value) {
        return "'" + ParameterMessages.given(cl, option, String.valueOf(value)) + "'";
    }

    private static boolean isRate(double p) {
        return p >= 0 && p <= 1;
    }
}
