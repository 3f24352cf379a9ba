package dev.orderly.sim.cli;

import dev.orderly.sim.fleet.FaultRates;
import dev.orderly.sim.fleet.FleetConfig;
import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.run.Scenario;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The options that describe what to simulate: each tenant's request, the fleet, the client, the engine's retry
 * delays, the faults, the seed and the time scale. {@link #toScenario} checks every value and names the option of the
 * first bad one.
 */
final class ScenarioOptions {

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

    @Option(names = "--refused-delay", paramLabel = "DURATION", defaultValue = "100ms",
            converter = DurationConverter.class,
            description = "Engine: wait before a refused job dials again (default: ${DEFAULT-VALUE}).")
    private Duration refusedDelay;

    @Option(names = "--failure-delay", paramLabel = "DURATION", defaultValue = "1s",
            converter = DurationConverter.class,
            description = "Engine: wait before a failed job dials again (default: ${DEFAULT-VALUE}).")
    private Duration failureDelay;

    @Option(names = "--unreachable-rate", paramLabel = "P", defaultValue = "0.01",
            description = "Fault: probability a dial finds no healthy upstream (default: ${DEFAULT-VALUE}).")
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
            description = "Simulated seconds per wall-clock second (default: ${DEFAULT-VALUE}).")
    private double timeScale;

    /**
     * The scenario these options describe.
     *
     * @throws ParameterException naming the option and its value when a value is out of range
     */
    Scenario toScenario(CommandLine cl) {
        check(cl, "--segments", segments >= 1 && segments <= 100_000, segments, "between 1 and 100000");
        check(cl, "--stages", stages >= 1 && stages <= 16, stages, "between 1 and 16");
        check(cl, "--workers", workers >= 1 && workers <= 10_000, workers, "between 1 and 10000");
        check(cl, "--tenants", tenants >= 1 && tenants <= 1_000, tenants, "between 1 and 1000");
        check(cl, "--instances", instances >= 1 && instances <= 10_000, instances, "between 1 and 10000");
        check(cl, "--slots", slots >= 1 && slots <= 10_000, slots, "between 1 and 10000");
        check(cl, "--job-duration", jobDuration.isPositive(), DurationConverter.format(jobDuration), "> 0");
        check(cl, "--job-spread", jobSpread >= 0 && jobSpread <= 3, jobSpread, "between 0 and 3");
        check(cl, "--unreachable-rate", isRate(unreachableRate), unreachableRate, "between 0 and 1");
        check(cl, "--timeout-rate", isRate(timeoutRate), timeoutRate, "between 0 and 1");
        check(cl, "--retryable-rate", isRate(retryableRate), retryableRate, "between 0 and 1");
        check(cl, "--fatal-rate", isRate(fatalRate), fatalRate, "between 0 and 1");
        check(cl, "--missing-output-rate", isRate(missingOutputRate), missingOutputRate, "between 0 and 1");
        double perAdmission = timeoutRate + retryableRate + fatalRate + missingOutputRate;
        if (perAdmission > 1) {
            throw new ParameterException(cl, String.format(Locale.ROOT,
                    "--timeout-rate + --retryable-rate + --fatal-rate + --missing-output-rate must be <= 1, was %s",
                    perAdmission));
        }
        check(cl, "--time-scale", timeScale > 0 && timeScale <= 1_000_000, timeScale, "> 0 and <= 1000000");
        FaultRates faults = new FaultRates(unreachableRate, timeoutRate, retryableRate, fatalRate, missingOutputRate);
        FleetConfig fleet = new FleetConfig(instances, slots, jobDuration, jobSpread, faults, seed,
                new TimeScale(timeScale));
        return new Scenario(segments, stages, workers, tenants, fleet, clientTime, refusedDelay, failureDelay);
    }

    private static void check(CommandLine cl, String option, boolean ok, Object value, String rule) {
        if (!ok) {
            throw new ParameterException(cl, option + " must be " + rule + ", was " + value);
        }
    }

    private static boolean isRate(double p) {
        return p >= 0 && p <= 1;
    }
}
