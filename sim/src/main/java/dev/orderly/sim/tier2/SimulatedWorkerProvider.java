package dev.orderly.sim.tier2;

import dev.orderly.grpc.JobWorker;
import dev.orderly.sim.cli.DurationConverter;
import dev.orderly.sim.fleet.FaultRates;
import dev.orderly.sim.fleet.FleetConfig;
import dev.orderly.sim.fleet.SimulatedWork;
import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.tier2.JobWorkerProvider;
import dev.orderly.tier2.ParameterMessages;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The simulator's worker as a {@code Tier2Main} provider (registered in {@code META-INF/services}): it reads the
 * simulated work and fault options that {@code Tier2Main} passes on, and makes a {@link SimulatedJobWorker}. A bad or
 * unknown option is an {@link IllegalArgumentException} naming it, which the process prints as its one line.
 */
public final class SimulatedWorkerProvider implements JobWorkerProvider {

    @Override
    public JobWorker create(List<String> options) {
        Options o = new Options();
        CommandLine cl = new CommandLine(o);
        try {
            cl.parseArgs(options.toArray(String[]::new));
            o.check(cl);
            FaultRates faults = new FaultRates(0, o.timeoutRate, o.retryableRate, o.fatalRate, o.missingOutputRate);
            FleetConfig shape = new FleetConfig(1, 1, o.jobDuration, o.jobSpread, faults, o.seed,
                    new TimeScale(o.timeScale));
            return new SimulatedJobWorker(new SimulatedWork(shape), o.stages);
        } catch (ParameterException e) { // FaultRates' own IllegalArgumentException (rates over 1) passes as it is
            // In the launcher's words, as its own options are: picocli's said "'abc' is not an int".
            throw new IllegalArgumentException(ParameterMessages.forPeople(e), e);
        }
    }

    /** The simulator's options for one tier2 process; the same names and defaults as {@code orderly}'s. */
    @Command(name = "simulated-worker")
    static final class Options {

        @Option(names = "--stages", paramLabel = "N", defaultValue = "2",
                description = "Stages per segment; the last one writes the output (default: ${DEFAULT-VALUE}).")
        int stages;

        @Option(names = "--job-duration", paramLabel = "DURATION", defaultValue = "2s",
                converter = DurationConverter.class, description = "Median run time of a job.")
        Duration jobDuration;

        @Option(names = "--job-spread", paramLabel = "SIGMA", defaultValue = "0.4",
                description = "Spread of job run times, log-normal sigma, 0..3.")
        double jobSpread;

        @Option(names = "--timeout-rate", paramLabel = "P", defaultValue = "0.005",
                description = "Fault: probability a job runs past its deadline.")
        double timeoutRate;

        @Option(names = "--retryable-rate", paramLabel = "P", defaultValue = "0.01",
                description = "Fault: probability a job fails with a retryable error.")
        double retryableRate;

        @Option(names = "--fatal-rate", paramLabel = "P", defaultValue = "0",
                description = "Fault: probability a job fails fatally.")
        double fatalRate;

        @Option(names = "--missing-output-rate", paramLabel = "P", defaultValue = "0.01",
                description = "Fault: probability a last-stage job's output goes missing.")
        double missingOutputRate;

        @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "Seed of every random draw.")
        long seed;

        @Option(names = "--time-scale", paramLabel = "X", defaultValue = "10",
                description = "Simulated seconds per wall-clock second.")
        double timeScale;

        void check(CommandLine cl) {
            check(cl, "--stages", stages >= 1 && stages <= 16, stages, "between 1 and 16");
            check(cl, "--job-duration", jobDuration.isPositive(), DurationConverter.format(jobDuration), "> 0");
            check(cl, "--job-spread", jobSpread >= 0 && jobSpread <= 3, jobSpread, "between 0 and 3");
            check(cl, "--timeout-rate", isRate(timeoutRate), timeoutRate, "between 0 and 1");
            check(cl, "--retryable-rate", isRate(retryableRate), retryableRate, "between 0 and 1");
            check(cl, "--fatal-rate", isRate(fatalRate), fatalRate, "between 0 and 1");
            check(cl, "--missing-output-rate", isRate(missingOutputRate), missingOutputRate, "between 0 and 1");
            check(cl, "--time-scale", timeScale > 0 && timeScale <= 1_000_000, timeScale, "> 0 and <= 1000000");
        }

        private static boolean isRate(double p) {
            return p >= 0 && p <= 1;
        }

        private static void check(CommandLine cl, String option, boolean ok, Object value, String rule) {
            if (!ok) {
                throw new ParameterException(cl, option + " must be " + rule + ", was " + value);
            }
        }
    }
}
