package dev.orderly.sim.cli;

import dev.orderly.grpc.Tier2Server;
import dev.orderly.sim.fleet.FaultRates;
import dev.orderly.sim.fleet.FleetConfig;
import dev.orderly.sim.fleet.SimulatedWork;
import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.tier2.SimulatedJobWorker;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * One tier2 process: a {@link Tier2Server} whose worker is the simulator's ({@link SimulatedJobWorker}). Prints
 * {@code listening on <host>:<port>} once it accepts calls, and drains on SIGTERM (running jobs get the grace period,
 * new calls are turned away). Exit codes: 2 for a bad option (one line), 1 if it can not bind or write.
 */
@Command(name = "tier2", mixinStandardHelpOptions = true, version = "orderly tier2 0.1.0", sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Serves orderly.tier2.v1.Tier2 with the simulator's jobs: each runs for its simulated time and"
                + " ends as the seed and the fault rates say; last-stage outputs go to --outputs/<request id>/.")
public final class Tier2Main implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--port", paramLabel = "N", defaultValue = "0",
            description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--max-concurrent", paramLabel = "N", defaultValue = "4",
            description = "Jobs run at once before the tier2 refuses (default: ${DEFAULT-VALUE}).")
    private int maxConcurrent;

    @Option(names = "--outputs", paramLabel = "DIR", required = true,
            description = "Directory the outputs go under, shared with the tier1.")
    private Path outputs;

    @Option(names = "--stages", paramLabel = "N", defaultValue = "2",
            description = "Stages per segment; the last one writes the output (default: ${DEFAULT-VALUE}).")
    private int stages;

    @Option(names = "--job-duration", paramLabel = "DURATION", defaultValue = "2s",
            converter = DurationConverter.class, description = "Median run time of a job (default: ${DEFAULT-VALUE}).")
    private Duration jobDuration;

    @Option(names = "--job-spread", paramLabel = "SIGMA", defaultValue = "0.4",
            description = "Spread of job run times, log-normal sigma, 0..3 (default: ${DEFAULT-VALUE}).")
    private double jobSpread;

    @Option(names = "--timeout-rate", paramLabel = "P", defaultValue = "0.005",
            description = "Fault: probability a job runs past its deadline (default: ${DEFAULT-VALUE}).")
    private double timeoutRate;

    @Option(names = "--retryable-rate", paramLabel = "P", defaultValue = "0.01",
            description = "Fault: probability a job fails with a retryable error (default: ${DEFAULT-VALUE}).")
    private double retryableRate;

    @Option(names = "--fatal-rate", paramLabel = "P", defaultValue = "0",
            description = "Fault: probability a job fails fatally (default: ${DEFAULT-VALUE}).")
    private double fatalRate;

    @Option(names = "--missing-output-rate", paramLabel = "P", defaultValue = "0.01",
            description = "Fault: probability a last-stage job's output goes missing (default: ${DEFAULT-VALUE}).")
    private double missingOutputRate;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
            description = "Seed of every random draw (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--time-scale", paramLabel = "X", defaultValue = "10",
            description = "Simulated seconds per wall-clock second (default: ${DEFAULT-VALUE}).")
    private double timeScale;

    @Option(names = "--drain-grace", paramLabel = "DURATION", defaultValue = "10s",
            converter = DurationConverter.class,
            description = "Wall-clock time running jobs get to finish on SIGTERM (default: ${DEFAULT-VALUE}).")
    private Duration drainGrace;

    private final PrintWriter out;

    Tier2Main(PrintWriter out) {
        this.out = out;
    }

    /** Runs one tier2 until SIGTERM. */
    public static void main(String[] args) {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        }
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(execute(args, out, err));
    }

    /** Runs the process with {@code args}: returns only on a bad option or a failure to start (or after draining). */
    static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Tier2Main(out));
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("tier2: " + firstLine(ex.getMessage()) + " (see --help)");
            err.flush();
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            err.println("tier2: " + firstLine(String.valueOf(ex)));
            err.flush();
            return 1;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        CommandLine cl = spec.commandLine();
        check(cl, "--port", port >= 0 && port <= 65_535, port, "between 0 and 65535");
        check(cl, "--max-concurrent", maxConcurrent >= 1 && maxConcurrent <= 100_000, maxConcurrent,
                "between 1 and 100000");
        check(cl, "--stages", stages >= 1 && stages <= 16, stages, "between 1 and 16");
        check(cl, "--job-duration", jobDuration.isPositive(), DurationConverter.format(jobDuration), "> 0");
        check(cl, "--job-spread", jobSpread >= 0 && jobSpread <= 3, jobSpread, "between 0 and 3");
        check(cl, "--timeout-rate", isRate(timeoutRate), timeoutRate, "between 0 and 1");
        check(cl, "--retryable-rate", isRate(retryableRate), retryableRate, "between 0 and 1");
        check(cl, "--fatal-rate", isRate(fatalRate), fatalRate, "between 0 and 1");
        check(cl, "--missing-output-rate", isRate(missingOutputRate), missingOutputRate, "between 0 and 1");
        check(cl, "--time-scale", timeScale > 0 && timeScale <= 1_000_000, timeScale, "> 0 and <= 1000000");
        check(cl, "--drain-grace", !drainGrace.isNegative(), DurationConverter.format(drainGrace), ">= 0");
        FaultRates faults;
        try {
            faults = new FaultRates(0, timeoutRate, retryableRate, fatalRate, missingOutputRate);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, e.getMessage());
        }
        Files.createDirectories(outputs);
        FleetConfig shape = new FleetConfig(1, maxConcurrent, jobDuration, jobSpread, faults, seed,
                new TimeScale(timeScale));
        Tier2Server server = Tier2Server.builder().host(host).port(port).maxConcurrentJobs(maxConcurrent)
                .drainGrace(drainGrace).instanceName(host + ":" + port)
                .worker(new SimulatedJobWorker(new SimulatedWork(shape), stages, outputs))
                .build();
        CountDownLatch drained = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("tier2-drain").unstarted(() -> {
            server.close();
            drained.countDown();
        }));
        server.start();
        out.println("listening on " + host + ":" + server.port());
        out.flush();
        drained.await(); // SIGTERM runs the hook, which drains; the JVM exits when it is done
        return 0;
    }

    private static boolean isRate(double p) {
        return p >= 0 && p <= 1;
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }

    private static void check(CommandLine cl, String option, boolean ok, Object value, String rule) {
        if (!ok) {
            throw new ParameterException(cl, option + " must be " + rule + ", was " + value);
        }
    }
}
