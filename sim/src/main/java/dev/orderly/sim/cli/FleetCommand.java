package dev.orderly.sim.cli;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Orderly;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.s3.S3OutputStore;
import dev.orderly.sim.fleet.Admission;
import dev.orderly.sim.fleet.FaultRates;
import dev.orderly.sim.fleet.FleetConfig;
import dev.orderly.sim.report.Report;
import dev.orderly.sim.report.TimelineSvg;
import dev.orderly.sim.run.RunResult;
import dev.orderly.sim.run.RunSpec;
import dev.orderly.sim.run.Scenario;
import dev.orderly.sim.run.SimulationRun;
import dev.orderly.sim.run.Strategy;
import dev.orderly.sim.tier2.ChildProcesses;
import dev.orderly.sim.tier2.FleetSecurity;
import dev.orderly.sim.tier2.GrpcFleet;
import dev.orderly.sim.tier2.S3ProxyProcess;
import dev.orderly.sim.tier2.SimulatedJobWorker;
import dev.orderly.sim.tier2.Tier2Processes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code orderly fleet}: the simulator's scenario on a real fleet. It starts {@code --instances} tier2 processes
 * ({@code Tier2Main}) on 127.0.0.1 with {@code --slots} slots each, runs the tenants over {@link GrpcTier2Client}
 * (ordered, then unordered, then, with {@code --admission=wait} (the default), ordered whose dials wait in the
 * processes' waiting rooms; each on a freshly started fleet), and prints the same table and picture. With
 * {@code --kill-one-at} one instance is killed ({@code kill -9}) that long into each run. With {@code --store=s3} the
 * outputs go to a bucket on an S3Proxy child process (a real S3 API server) instead of a directory. No child process
 * outlives the command: success, failure and Ctrl-C alike (a shutdown hook stops them).
 */
@Command(name = "fleet", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Runs the scenario against real tier2 processes on 127.0.0.1 over gRPC: --instances processes with"
                    + " --slots slots each, the tenants' requests ordered, then unordered, then ordered + waiting"
                    + " room (with --admission=wait, the default); prints the table and writes the picture.",
            // --unreachable-rate and --wait-at come with the options fleet shares with orderly, so the list below
            // shows them: say here that fleet refuses them, or its help offers options that are always exit 2.
            "The work and fault options are passed to every tier2 process; --unreachable-rate is refused (a real"
                    + " fleet is unreachable only when it is), --wait-at is refused (over gRPC a dial waits at the"
                    + " one instance round_robin picks), and --instances is bounded by what this machine can run"
                    + " (each instance is a JVM)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every request delivered every segment", "1:a request failed, a tier2 would not start,"
                + " every tier2 ended mid-run, or the picture could not be written", "2:bad option or value"})
final class FleetCommand implements Callable<Integer> {

    private static final String BUCKET = "orderly-fleet";

    @Spec
    private CommandSpec spec;

    @Mixin
    private ScenarioOptions scenarioOptions;

    @Mixin
    private AdmissionOptions admission;

    @Option(names = "--kill-one-at", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Kill -9 one instance this long (simulated) into each run; its jobs fail and are retried.")
    private Duration killOneAt;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "orderly-out/fleet-timeline.svg",
            description = "Where to write the picture (default: ${DEFAULT-VALUE}).")
    private Path output;

    /** {@link #output}, checked: where the picture goes. */
    private Path picture;

    @Option(names = {"-q", "--quiet"},
            description = "No progress lines (the heading, the table, its notes and the picture's path still print).")
    private boolean quiet;

    /** Where the tier2 processes write the outputs and the tenants read them. */
    enum Store {
        file, s3;

        /** Reads a value in any case; an unknown one is refused as every choice is (picocli's words named none). */
        static final class Converter extends Choices.Converter<Store> {
            Converter() {
                super(Store.class, "a store");
            }
        }
    }

    @Option(names = "--store", paramLabel = "file|s3", defaultValue = "file", converter = Store.Converter.class,
            description = "Where the outputs go: a temporary directory, or an S3 bucket on an S3Proxy (a real S3 API"
                    + " server) the command starts on 127.0.0.1 and stops (default: ${DEFAULT-VALUE}).")
    private Store store;

    @Option(names = "--plaintext",
            description = "No TLS and no token between the tier1 and the tier2 processes (default: TLS with a"
                    + " certificate made at start, and a bearer token).")
    private boolean plaintext;

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean terminal;
    private final AtomicReference<Tier2Processes> running = new AtomicReference<>();
    private final AtomicReference<S3ProxyProcess> s3 = new AtomicReference<>();
    private final Map<String, String> env;

    FleetCommand(Map<String, String> env, PrintWriter out, PrintWriter err, boolean terminal) {
        this.env = env;
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    /**
     * The {@code fleet} command line, with its {@code bench} subcommand; the engine's variables are read from
     * {@code env}, as the simulator reads them.
     */
    static CommandLine commandLine(Map<String, String> env, PrintWriter out, PrintWriter err, boolean terminal) {
        return new CommandLine(new FleetCommand(env, out, err, terminal))
                .addSubcommand("bench", new FleetBenchCommand(out));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (spec.commandLine().getParseResult().hasMatchedOption("--unreachable-rate")) {
            throw new ParameterException(spec.commandLine(), "--unreachable-rate is not an option of orderly fleet:"
                    + " a real fleet is unreachable only when it is (--kill-one-at kills an instance)");
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--wait-at")) {
            throw new ParameterException(spec.commandLine(), "--wait-at is not an option of orderly fleet: over gRPC"
                    + " a dial waits at the one instance the client's round_robin picks for it");
        }
        Scenario scenario = scenarioOptions.toScenario(spec.commandLine(), env)
                .withAdmission(admission.toAdmission(spec.commandLine()));
        Tier2ProcessBudget.ofThisMachine().check(spec.commandLine(), "--instances", scenario.fleet().instances(),
                Integer.MAX_VALUE);
        if (killOneAt != null && (killOneAt.isNegative() || scenario.fleet().instances() < 2)) {
            throw new ParameterException(spec.commandLine(), "--kill-one-at needs a duration >= 0 and --instances"
                    + " >= 2, was " + DurationConverter.format(killOneAt) + " with "
                    + RunSupport.count(scenario.fleet().instances(), "instance"));
        }
        // Before any process starts: a picture that cannot be written would be found after every run was paid for.
        picture = OutputPath.check(spec.commandLine(), "--output", output.toString());
        Path work = Files.createTempDirectory("orderly-fleet-");
        Thread stopChildren = Thread.ofPlatform().unstarted(() -> {
            stopFleet();
            stopS3();
            // A fleet or S3Proxy is recorded once it listens: children still starting, or being started right now,
            // are stopped here (and no more start), or they would listen for ever once the JVM halts. Before the
            // work directory goes: a child still starting reads its certificate and writes its outputs there.
            ChildProcesses.ofThisJvm().stopAll();
            // The JVM halts once its hooks are done, maybe before the finally below: the work directory holds the
            // run's TLS private key and bearer token, which must not outlive a Ctrl-C either.
            deleteTree(work, false);
        });
        Runtime.getRuntime().addShutdownHook(stopChildren); // Ctrl-C: no child, and no key, outlives the command
        long started = System.nanoTime();
        boolean keepLogs = false;
        try {
            printHeading(scenario);
            if (store == Store.s3) {
                startS3(work);
            }
            List<RunResult> results = new ArrayList<>();
            List<RunSpec> runs = new ArrayList<>(List.of(RunSpec.all(Strategy.ORDERED, scenario.tenants()),
                    RunSpec.all(Strategy.UNORDERED, scenario.tenants())));
            if (scenario.admission().hasRoom()) {
                runs.add(RunSpec.all(Strategy.WAITING, scenario.tenants()));
            }
            for (int i = 0; i < runs.size(); i++) {
                results.add(runOnFreshFleet(scenario, runs.get(i), i, runs.size(), work.resolve("run-" + i)));
            }
            return report(scenario, results, started);
        } catch (IOException e) {
            // A tier2 or S3Proxy that would not start says "see <work>/.../tier2-0.log": that log must outlive us,
            // unless the command was told to stop (its hook deletes the work directory, key and token included).
            keepLogs = !ChildProcesses.ofThisJvm().isStopping();
            throw e;
        } finally {
            stopFleet();
            stopS3();
            deleteTree(work, keepLogs);
            if (keepLogs) {
                err.println("orderly fleet: the processes' logs are kept under " + work);
                err.flush();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(stopChildren);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or ran: it stops the fleet itself
            }
        }
    }

    private RunResult runOnFreshFleet(Scenario scenario, RunSpec run, int index, int count, Path dir)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        FleetConfig f = scenario.fleet();
        if (!quiet) {
            out.printf(Locale.ROOT, "run %d/%d: %s: starting %d tier2 processes…%n", index + 1, count, run.name(),
                    f.instances());
            out.flush();
        }
        FleetSecurity security = plaintext ? FleetSecurity.plaintext() : FleetSecurity.tls(dir.resolve("tls"));
        S3ProxyProcess bucket = s3.get();
        List<String> args = new ArrayList<>(tier2Args(scenario, dir));
        args.addAll(security.tier2Args());
        // Only the waiting room's run gets processes with a room: the others measure today's tier2.
        boolean room = run.tenantStrategies().contains(Strategy.WAITING);
        Duration wallWait = roomWait(scenario);
        if (room) {
            args.add("--room=" + scenario.admission().room());
            args.add("--admission-wait=" + wallWait.toMillis() + "ms");
        }
        Function<String, OutputStore> outputs = tenant -> SimulatedJobWorker.outputsOf(dir, tenant);
        if (bucket != null) {
            String prefix = dir.getFileName() + "/";
            args.set(args.indexOf("--outputs=" + dir), "--outputs=s3://" + BUCKET + "/" + prefix);
            args.add("--s3-endpoint=" + bucket.endpoint());
            outputs = tenant -> S3OutputStore.builder().client(bucket.client()).bucket(BUCKET)
                    .prefix(prefix + tenant + "/").build();
        }
        Tier2Processes fleet = Tier2Processes.start(f.instances(), args,
                bucket == null ? Map.of() : bucket.environment(), dir, Duration.ofSeconds(60));
        running.set(fleet);
        // The engine redials a fleet that is gone for ever (a real one may come back): when every process of this
        // one has ended, and not because the command stops it, the warm-up or the run is cancelled and said to have
        // failed.
        Thread runner = Thread.currentThread();
        AtomicBoolean watching = new AtomicBoolean(true);
        AtomicBoolean fleetGone = new AtomicBoolean();
        CompletableFuture.allOf(fleet.processes().stream().map(Process::onExit)
                .toArray(CompletableFuture[]::new)).thenRun(() -> {
                    if (running.get() == fleet && watching.compareAndSet(true, false)) {
                        fleetGone.set(true);
                        runner.interrupt();
                    }
                });
        String during = "the warm-up";
        Thread killer = null;
        try (GrpcTier2Client client = security.client(fleet.addresses()).build();
             GrpcTier2Client waiting = room ? security.client(fleet.addresses()).admissionWait(wallWait).build()
                     : null) {
            warmUp(client, outputs.apply("warm-up"), scenario.stages());
            during = "the run";
            Function<String, OutputStore> tenantOutputs = outputs;
            killer = killOneAt == null ? null : Thread.ofVirtual().start(() -> killLater(fleet, f));
            ProgressPrinter printer = new ProgressPrinter(out, terminal);
            Duration period = terminal ? Duration.ofMillis(200) : Duration.ofSeconds(2);
            RunResult result = new SimulationRun(scenario, run, period, quiet ? p -> { } : printer,
                    UnaryOperator.identity(), s -> new GrpcFleet(client, waiting, tenantOutputs)).run();
            printer.finish();
            return result;
        } catch (InterruptedException e) {
            if (fleetGone.get()) {
                throw new IOException("every tier2 process ended during " + during + ", " + exits(fleet)
                        + " (see " + dir.resolve("tier2-<i>.log") + ")");
            }
            throw e;
        } finally {
            if (!watching.compareAndSet(true, false) && fleetGone.get()) {
                Thread.interrupted(); // the watcher's, had the run ended as the fleet did
            }
            if (killer != null) {
                killer.interrupt();
                killer.join(Duration.ofSeconds(5));
            }
            stopFleet();
        }
    }

    /** How each process of {@code fleet} ended: {@code tier2 0 exit 137, tier2 1 exit 137}. */
    private static String exits(Tier2Processes fleet) {
        List<Process> all = fleet.processes();
        List<String> said = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            said.add("tier2 " + i + " exit " + all.get(i).exitValue());
        }
        return String.join(", ", said);
    }

    /** One small request before the measured run, so neither strategy pays for loading and compiling the code. */
    private static void warmUp(GrpcTier2Client client, OutputStore outputs, int stages) throws InterruptedException {
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofMillis(10))
                .failureDelay(Duration.ofMillis(10)).build();
        try {
            Orderly.engine(config).run(Request.of(new RequestPlan(0, 8, stages, 8), client,
                    outputs, (segment, bytes) -> { }).withId("warm-up"));
        } catch (RequestFailedException e) {
            // a fault the seed drew for the warm-up: it warmed up all the same
        }
    }

    private void killLater(Tier2Processes fleet, FleetConfig f) {
        try {
            Thread.sleep(f.timeScale().toWall(killOneAt));
        } catch (InterruptedException e) {
            return; // the run ended first
        }
        fleet.kill(0);
        if (!quiet) {
            out.printf(Locale.ROOT, "killed tier2 0 (kill -9) %s into the run%n", DurationConverter.format(killOneAt));
            out.flush();
        }
    }

    private void startS3(Path work) throws IOException, InterruptedException {
        if (!quiet) {
            out.println("starting S3Proxy (a real S3 API server) on 127.0.0.1 for the outputs…");
            out.flush();
        }
        s3.set(S3ProxyProcess.start(work.resolve("s3"), BUCKET, work, Duration.ofSeconds(90)));
        if (!quiet) {
            out.println("outputs in s3://" + BUCKET + "/ at " + s3.get().endpoint());
            out.flush();
        }
    }

    private void stopFleet() {
        Tier2Processes fleet = running.getAndSet(null);
        if (fleet != null) {
            fleet.close();
        }
    }

    private void stopS3() {
        S3ProxyProcess server = s3.getAndSet(null);
        if (server != null) {
            server.close();
        }
    }

    /**
     * The room's wait in wall-clock time (the processes' clock), in whole milliseconds as the protocol sends it, rounded
     * up as the protocol rounds (cut, 1.9 ms was 1 ms, half the wait asked for at a time scale of 10), at least 1 ms;
     * zero without a room.
     */
    static Duration roomWait(Scenario s) {
        if (!s.admission().hasRoom()) {
            return Duration.ZERO;
        }
        Duration wall = s.fleet().timeScale().toWall(s.admission().maxWait());
        long millis = wall.toMillis() + (wall.minusMillis(wall.toMillis()).isZero() ? 0 : 1);
        return Duration.ofMillis(Math.max(1, millis));
    }

    private static List<String> tier2Args(Scenario s, Path dir) {
        FleetConfig f = s.fleet();
        FaultRates r = f.faults();
        return List.of("--max-concurrent=" + f.slotsPerInstance(), "--outputs=" + dir, "--stages=" + s.stages(),
                "--job-duration=" + DurationConverter.format(f.jobDuration()), "--job-spread=" + f.jobSpread(),
                "--timeout-rate=" + r.executionTimeout(), "--retryable-rate=" + r.retryable(),
                "--fatal-rate=" + r.fatal(), "--missing-output-rate=" + r.outputMissing(), "--seed=" + f.seed(),
                "--time-scale=" + f.timeScale().factor(), "--drain-grace=1s");
    }

    private int report(Scenario scenario, List<RunResult> results, long started) {
        Report report = new Report(results);
        out.println();
        out.print(report.table().render());
        out.println();
        out.println("Real tier2 processes over gRPC (" + (plaintext ? "plaintext" : "TLS + bearer token")
                + ") on 127.0.0.1; times are simulated seconds (see orderly --help"
                + " for the columns). dials counts what the tier1 saw: refused, unreachable and admitted alike.");
        if (scenario.admission().hasRoom()) {
            // Without it the room's run was the one row whose settings were said nowhere.
            Admission a = scenario.admission();
            out.printf(Locale.ROOT, "waiting room: in its run, each tier2 process seats %d dials that ask to wait,"
                            + " each up to %s (%s wall-clock), holding no slot; a slot that frees goes to a seated"
                            + " dial.%n",
                    a.room(), DurationConverter.format(a.maxWait()), DurationConverter.format(roomWait(scenario)));
        }
        for (String note : report.notes()) {
            out.println(note);
        }
        int code = results.stream().allMatch(RunResult::allCompleted) ? 0 : 1;
        try {
            FleetConfig f = scenario.fleet();
            String heading = String.format(Locale.ROOT, "orderly fleet: %s x %s x %s, %s each, %s x %s, job %s,"
                            + " seed %d",
                    RunSupport.tenants(scenario.tenants()), RunSupport.count(scenario.segments(), "segment"),
                    RunSupport.stages(scenario.stages()), RunSupport.count(scenario.workers(), "worker"),
                    RunSupport.count(f.instances(), "tier2 process", "tier2 processes"),
                    RunSupport.count(f.slotsPerInstance(), "slot"), DurationConverter.format(f.jobDuration()),
                    f.seed());
            new TimelineSvg(heading, report.panels(), scenario.stages(), f.timeScale()).write(picture);
            out.println("picture: " + picture);
        } catch (IOException e) {
            err.println("orderly fleet: cannot write the picture to " + picture + ": " + OutputPath.describe(e));
            code = 1;
        }
        out.printf(Locale.ROOT, "wall-clock time: %.1f s%n", (System.nanoTime() - started) / 1e9);
        out.flush();
        return code;
    }

    private void printHeading(Scenario s) {
        FleetConfig f = s.fleet();
        out.printf(Locale.ROOT, "orderly fleet: %s x %s x %s, %s each, on %s x %s (%s for %s), job %s median,"
                        + " time scale %s%n",
                RunSupport.tenants(s.tenants()), RunSupport.count(s.segments(), "segment"),
                RunSupport.stages(s.stages()), RunSupport.count(s.workers(), "worker"),
                RunSupport.count(f.instances(), "tier2 process", "tier2 processes"),
                RunSupport.count(f.slotsPerInstance(), "slot"), RunSupport.count(f.capacity(), "slot"),
                RunSupport.count((long) s.tenants() * s.workers(), "worker"), DurationConverter.format(f.jobDuration()),
                f.timeScale().factor());
        out.flush();
    }

    /** Deletes {@code root} and what it holds; with {@code keepLogs}, every {@code *.log} and its directories stay. */
    private static void deleteTree(Path root, boolean keepLogs) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder())
                    .filter(p -> !(keepLogs && p.getFileName().toString().endsWith(".log")))
                    .forEach(p -> p.toFile().delete()); // a directory that still holds a log is not deleted
        } catch (IOException e) {
            // a temporary directory left behind is not worth failing the command for
        }
    }
}
