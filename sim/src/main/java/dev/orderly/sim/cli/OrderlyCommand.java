package dev.orderly.sim.cli;

import dev.orderly.api.EngineConfig;
import dev.orderly.sim.fleet.Admission;
import dev.orderly.sim.fleet.FaultRates;
import dev.orderly.sim.fleet.FleetConfig;
import dev.orderly.sim.report.Report;
import dev.orderly.sim.report.TimelineSvg;
import dev.orderly.sim.run.ProgressSample;
import dev.orderly.sim.run.RunResult;
import dev.orderly.sim.run.RunSpec;
import dev.orderly.sim.run.Scenario;
import dev.orderly.sim.run.SimulationRun;
import dev.orderly.tier2.ParameterMessages;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code orderly} command: runs the same scenario on a simulated, full fleet with ordered launch and with the
 * unordered baseline (and a mixed run), shows progress, prints the comparison table and writes the picture.
 *
 * <p>Exit codes: 0 when every request delivered every segment; 1 when a request failed (the report says which and
 * why) or the picture could not be written; 2 for a bad option or value (one line naming it).
 */
@Command(name = "orderly", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        subcommands = SweepCommand.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Runs one scenario on a simulated tier2 fleet that is full: several tenants' requests compete for its"
                    + " slots, an instance at its limit refuses a job at once, and a refused job dials again.",
            "It runs the scenario with ordered launch (the job the client reads first gets the next free slot), with"
                    + " the unordered baseline (every refused job redials on its own), with the oracle (a perfect"
                    + " central dispatcher, the limit), with ordered launch whose dials wait in each instance's"
                    + " waiting room (a full instance hands its next free slot to the best waiter), and mixed (one"
                    + " ordered tenant among unordered ones); then prints a table and writes a picture.",
            "Durations are simulated time, written as Go durations like 250ms, 1.5s or 1m30s (the engine's environment"
                    + " variables use the same form); --time-scale sets how fast it runs.",
            "The engine reads its environment variables (SUBSTREAMS_WORKER_LAUNCH_WINDOW_PERCENT, _LAUNCH_WINDOW_MAX,"
                    + " _OVERLOADED_RETRY_DELAY, _FAILED_RETRY_DELAY, _MAX_RETRIES, _MAX_TIMEOUT_RETRIES,"
                    + " ORDERLY_LOOKAHEAD_FACTOR, SUBSTREAMS_TIER1_MAX_SUBREQUESTS) as an embedded engine would; an"
                    + " option overrides its variable, and a"
                    + " bad value is an error naming it. ORDERLY_ORDERED_LAUNCH is checked but not used: --strategy"
                    + " sets each run's."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every request delivered every segment", "1:a request failed, or the picture could not be"
                + " written", "2:bad option or value"})
public final class OrderlyCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ScenarioOptions scenarioOptions;

    @Mixin
    private ObservabilityOptions observability;

    @Mixin
    private AdmissionOptions admission;

    @Option(names = "--strategy", paramLabel = "NAME", defaultValue = "all",
            converter = StrategyChoice.Converter.class,
            description = "ordered, unordered, oracle (a perfect central dispatcher: the limit), waiting (ordered"
                    + " launch whose dials wait in the fleet's waiting room), both (ordered then unordered), mixed, or"
                    + " all (ordered, unordered, oracle, ordered + waiting room, then mixed) (default: all).")
    private StrategyChoice strategy;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "orderly-out/timeline.svg",
            description = "Where to write the picture (default: ${DEFAULT-VALUE}).")
    private String output;

    @Option(names = {"-q", "--quiet"},
            description = "No progress lines (the heading, the table, its notes and the picture's path still print).")
    private boolean quiet;

    private final Map<String, String> env;
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean terminal;

    OrderlyCommand(Map<String, String> env, PrintWriter out, PrintWriter err, boolean terminal) {
        this.env = env;
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    /** Runs the command and exits with its exit code. */
    public static void main(String[] args) {
        // The engine logs through SLF4J; the command prints for people, so only errors reach stderr by default.
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        }
        // gRPC (./orderly fleet) logs through java.util.logging: send it to SLF4J, at the same level as the rest.
        org.slf4j.bridge.SLF4JBridgeHandler.removeHandlersForRootLogger();
        org.slf4j.bridge.SLF4JBridgeHandler.install();
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        boolean terminal = System.console() != null && System.console().isTerminal();
        System.exit(execute(args, System.getenv(), out, err, terminal));
    }

    /** Runs the command with {@code args}, printing to {@code out} and {@code err}; returns the exit code. */
    static int execute(String[] args, PrintWriter out, PrintWriter err, boolean terminal) {
        return execute(args, Map.of(), out, err, terminal);
    }

    /**
     * Runs the command with {@code args} and the environment {@code env}, printing to {@code out} and {@code err};
     * returns the exit code.
     */
    static int execute(String[] args, Map<String, String> env, PrintWriter out, PrintWriter err, boolean terminal) {
        CommandLine cl = new CommandLine(new OrderlyCommand(env, out, err, terminal));
        cl.addSubcommand("fleet", FleetCommand.commandLine(env, out, err, terminal));
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("orderly: " + ParameterMessages.forPeople(ex) + " (see "
                    + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
            err.flush();
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            // For people: the message, never the exception's class name.
            err.println("orderly: " + (ex.getMessage() == null ? "unexpected internal error" : firstLine(ex.getMessage())));
            err.flush();
            return 1;
        });
        // picocli runs the last command named: what an earlier one matched would be dropped without a word.
        cl.setExecutionStrategy(parsed -> {
            Integer help = CommandLine.executeHelpRequest(parsed);
            if (help != null) {
                return help;
            }
            refuseOptionsBeforeASubcommand(parsed);
            return new CommandLine.RunLast().execute(parsed);
        });
        // A variable that looks meant for the engine but is not one it reads would otherwise be silently ignored.
        for (String warning : EngineConfig.environmentWarnings(env)) {
            err.println("orderly: warning: environment: " + warning);
        }
        err.flush();
        return cl.execute(args);
    }

    /**
     * Refuses an option given to a command whose subcommand runs instead ({@code orderly --instances=2 fleet}): the
     * subcommand has options of its own, and the one given before its name was read by a command that never ran.
     */
    private static void refuseOptionsBeforeASubcommand(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p.hasSubcommand(); p = p.subcommand()) {
            CommandSpec sub = p.subcommand().commandSpec();
            for (OptionSpec o : p.matchedOptions()) {
                if (o.usageHelp() || o.versionHelp()) {
                    continue;
                }
                List<String> values = o.originalStringValues();
                String given = o.longestName()
                        + (o.arity().max() == 0 || values.isEmpty() ? "" : "=" + values.getLast());
                throw new ParameterException(sub.commandLine(), given + " is given before '" + sub.name()
                        + "', where " + sub.qualifiedName() + " does not read it"
                        + (sub.findOption(o.longestName()) != null ? ": give it after '" + sub.name() + "'" : ""));
            }
        }
    }

    private static String firstLine(String s) {
        return ParameterMessages.firstLine(s);
    }

    /** The environment the command was started with: the engine's variables are read from it. */
    Map<String, String> environment() {
        return env;
    }

    @Override
    public Integer call() throws InterruptedException, IOException {
        Scenario scenario = scenario();
        Path picture = OutputPath.check(spec.commandLine(), "--output", output);
        observability.checkApartFrom(spec.commandLine(), "--output", picture);
        List<RunSpec> runs = strategy.runs(scenario.tenants(), scenario.admission().hasRoom());
        long started = System.nanoTime();
        boolean forPeople = observability.format() == OutputFormat.TABLE;
        if (forPeople) {
            printHeading(scenario);
        }
        RunSupport.warmUp();
        List<RunResult> results = new ArrayList<>();
        Observation observation = observability.open();
        try (observation) {
            for (int i = 0; i < runs.size(); i++) {
                RunSpec run = runs.get(i);
                if (!quiet && forPeople) {
                    out.printf(Locale.ROOT, "run %d/%d: %s%n", i + 1, runs.size(), describe(run));
                }
                ProgressPrinter printer = new ProgressPrinter(out, terminal);
                Consumer<ProgressSample> progress = quiet || !forPeople ? p -> { } : printer;
                Duration period = terminal ? Duration.ofMillis(200) : Duration.ofSeconds(2);
                RunResult result = new SimulationRun(scenario, run, period, progress,
                        observation.observer(run.name())).run();
                printer.finish();
                results.add(result);
                RunSupport.warnIfBehind(err, scenario, run, result);
            }
        }
        Report report = new Report(results);
        if (!forPeople) {
            return printForScripts(scenario, results, report, observation, picture, started);
        }
        out.println();
        out.print(report.table().render());
        out.println();
        out.println("Times are simulated seconds. first segment: mean over tenants of start -> first segment delivered.");
        out.println("mean delivery: mean over every segment of start -> segment delivered.");
        out.println("lag: per segment, output ready -> delivered to the client (p50/p90/max over every segment).");
        out.println("client stall: mean over tenants of the time the client waited with nothing to read.");
        out.println("total: start -> last segment delivered. dials/s: dials per simulated second on the fleet.");
        out.println("failures: jobs that got in and then failed (retried unless fatal or out of retries).");
        out.println("ratios: '-' when both times are under 0.05s (noise); '>Nx' when only the divisor is;"
                + " 'n/a' when there is nothing to divide by (the oracle is never refused).");
        if (report.waitingRow().isPresent()) {
            Admission a = scenario.admission();
            // A dial waits at no more instances than the fleet has (SimulatedTier2 takes the smaller): say what ran.
            int waitAt = Math.min(a.waitAt(), scenario.fleet().instances());
            out.printf(Locale.ROOT, "waiting room: a full instance holds a dial that asks to wait (up to %s, at %s"
                            + " at once, %s each) and hands it the next free slot; dials are the"
                            + " engines' dials (one waiting at %s is up to %s).%n",
                    DurationConverter.format(a.maxWait()), RunSupport.count(waitAt, "instance"),
                    RunSupport.count(a.room(), "seat"), RunSupport.count(waitAt, "instance"),
                    RunSupport.count(waitAt, "call"));
        }
        for (String note : report.notes()) {
            out.println(note);
        }
        if (observation.hasMeters()) {
            out.println();
            out.print(observation.summary());
        }
        observation.recordingFile().ifPresent(f -> out.println("flight recording: " + f));
        long wall = System.nanoTime() - started;
        int code = results.stream().allMatch(RunResult::allCompleted) ? 0 : 1;
        if (writePicture(scenario, report, picture)) {
            out.println("picture: " + picture);
        } else {
            code = 1;
        }
        out.printf(Locale.ROOT, "wall-clock time: %.1f s%n", wall / 1e9);
        out.flush();
        return code;
    }

    /** The report as CSV or JSON, alone on stdout; the picture is written as for people. */
    private int printForScripts(Scenario scenario, List<RunResult> results, Report report, Observation observation,
            Path picture, long started) {
        boolean pictureWritten = writePicture(scenario, report, picture);
        int code = results.stream().allMatch(RunResult::allCompleted) && pictureWritten ? 0 : 1;
        out.print(observability.format() == OutputFormat.CSV ? MachineReport.csv(report)
                : MachineReport.json(scenario, results, report, pictureWritten ? picture : null,
                        observation.recordingFile(),
                        (System.nanoTime() - started) / 1e9,
                        observation.meters()));
        out.flush();
        return code;
    }

    /** Writes the timeline picture; says on stderr, in one line, why it could not. */
    private boolean writePicture(Scenario scenario, Report report, Path picture) {
        try {
            new TimelineSvg(pictureHeading(scenario), report.panels(), scenario.stages(), scenario.fleet().timeScale())
                    .write(picture);
            return true;
        } catch (IOException e) {
            err.println("orderly: cannot write the picture to " + picture + ": " + OutputPath.describe(e));
            return false;
        }
    }

    private Scenario scenario() {
        Scenario scenario = scenarioOptions.toScenario(spec.commandLine(), env)
                .withAdmission(admission.toAdmission(spec.commandLine()));
        observability.check(spec.commandLine());
        if (strategy == StrategyChoice.WAITING && !scenario.admission().hasRoom()) {
            throw new ParameterException(spec.commandLine(), "--strategy=waiting needs --admission=wait, was"
                    + " --admission=refuse");
        }
        if (strategy.includesMixed() && scenario.tenants() < 2) {
            throw new ParameterException(spec.commandLine(), "--tenants must be >= 2 for a mixed run (or use"
                    + " --strategy=both), was " + scenario.tenants());
        }
        if (!strategy.runsTheRoom(scenario.admission().hasRoom())) {
            // No run's dials wait: the room's options would be dropped without a word, and the JSON's scenario
            // would still name the room.
            admission.refuseRoomOptions(spec.commandLine(), "--strategy=" + strategy.label() + " does not run");
        }
        return scenario;
    }

    private String describe(RunSpec run) {
        return switch (run.name()) {
            case "ordered" -> "ordered: every tenant uses ordered launch";
            case "unordered" -> "unordered: every tenant uses the unordered baseline";
            case "oracle" -> "oracle: a perfect central dispatcher gives each free slot to the lowest waiting unit,"
                    + " tenants in turn";
            // as the room (WaitingRoom) hands slots over: not plain turns, a tenant with fewer jobs there goes first
            case "ordered + waiting room" -> "ordered + waiting room: every tenant uses ordered launch, and a full"
                    + " instance holds its dials and hands each free slot to the waiting tenant with the fewest jobs"
                    + " running there (round robin among equals), to its lowest segment";
            default -> "mixed: tenant-1 uses " + run.tenantStrategies().getFirst().label() + ", the other "
                    + (run.tenants() - 1) + " the baseline";
        };
    }

    private void printHeading(Scenario s) {
        FleetConfig f = s.fleet();
        out.printf(Locale.ROOT, "orderly: %s x %s x %s, %s each, on %s x %s (%s for %s)%n",
                RunSupport.tenants(s.tenants()), RunSupport.count(s.segments(), "segment"),
                RunSupport.stages(s.stages()), RunSupport.count(s.workers(), "worker"),
                RunSupport.count(f.instances(), "instance"), RunSupport.count(f.slotsPerInstance(), "slot"),
                RunSupport.count(f.capacity(), "slot"), RunSupport.count((long) s.tenants() * s.workers(), "worker"));
        out.printf(Locale.ROOT, "  job %s median (spread %s), client %s per segment, refused delay %s, failure delay"
                        + " %s%n",
                DurationConverter.format(f.jobDuration()), f.jobSpread(), DurationConverter.format(s.clientTime()),
                DurationConverter.format(s.refusedDelay()), DurationConverter.format(s.failureDelay()));
        EngineConfig e = s.engine();
        out.printf(Locale.ROOT, "  engine: window %d%% of workers (%d..%d), max failures %d, max timeouts %d,"
                        + " look-ahead %s%s%n",
                e.launchWindowPercent(), e.launchWindowMin(), e.launchWindowMax(), e.maxFailures(),
                e.maxExecutionTimeouts(), e.lookaheadFactor(), e.maxConcurrentJobs() == EngineConfig.UNLIMITED_JOBS
                        ? "" : ", at most " + e.maxConcurrentJobs() + " jobs alive per engine");
        FaultRates r = f.faults();
        out.printf(Locale.ROOT, "  faults: unreachable %s, execution timeout %s, retryable %s, fatal %s, output"
                        + " missing %s; seed %d; time scale %s (1 simulated s = %.0f ms wall)%n",
                r.unreachable(), r.executionTimeout(), r.retryable(), r.fatal(), r.outputMissing(), f.seed(),
                f.timeScale().factor(), 1000 / f.timeScale().factor());
        out.flush();
    }

    private String pictureHeading(Scenario s) {
        return String.format(Locale.ROOT, "orderly: %s x %s x %s, %s each, %d x %s, job %s, seed %d",
                RunSupport.tenants(s.tenants()), RunSupport.count(s.segments(), "segment"),
                RunSupport.stages(s.stages()), RunSupport.count(s.workers(), "worker"), s.fleet().instances(),
                RunSupport.count(s.fleet().slotsPerInstance(), "slot"),
                DurationConverter.format(s.fleet().jobDuration()), s.fleet().seed());
    }
}
