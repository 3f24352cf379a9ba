package dev.orderly.sim.cli;

import dev.orderly.api.EngineConfig;
import dev.orderly.sim.fleet.Admission;
import dev.orderly.sim.fleet.FaultRates;
import dev.orderly.sim.fleet.FleetConfig;
import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.report.StrategyMetrics;
import dev.orderly.sim.report.SweepChart;
import dev.orderly.sim.report.SweepPoint;
import dev.orderly.sim.run.RunResult;
import dev.orderly.sim.run.RunSpec;
import dev.orderly.sim.run.Scenario;
import dev.orderly.sim.run.SimulationRun;
import dev.orderly.sim.run.Strategy;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code orderly sweep}: runs ordered launch, the unordered baseline, the oracle and (with {@code --admission=wait},
 * the default) ordered launch with the fleet's waiting room over a grid of job durations (as multiples of the refused
 * delay) and fleet fullness (workers wanted per slot), prints the ratios ordered/unordered, ordered/oracle and
 * waiting room/oracle of mean delivery, first segment and total at each point, and draws them.
 * Every point is a fresh fleet with the same seed; there are no injected faults, so the ratios show the launch
 * strategies alone.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Runs ordered launch, the unordered baseline, the oracle (a perfect central dispatcher) and ordered launch"
                    + " with the fleet's waiting room over a grid of job durations and fleet fullness, prints the"
                    + " ratios ordered/unordered, ordered/oracle and waiting room/oracle of mean delivery, first"
                    + " segment and total, and draws them as an SVG line chart.",
            "The fleet has --slots slots per instance and as many instances as the fullness asks:"
                    + " tenants x workers / (fullness x slots). No faults are injected.",
            "The engine reads its environment variables as orderly does (see orderly --help); the two delays,"
                    + " SUBSTREAMS_WORKER_OVERLOADED_RETRY_DELAY and _FAILED_RETRY_DELAY, as simulated time, and"
                    + " --refused-delay overrides the first."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every request delivered every segment", "1:a request failed, or the chart could not be"
                + " written", "2:bad option or value"})
final class SweepCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @ParentCommand
    private OrderlyCommand parent;

    @Mixin
    private AdmissionOptions admissionOptions;

    @Option(names = "--job-ratios", paramLabel = "LIST", split = ",", preprocessor = NoEmptyElement.class,
            defaultValue = "5,10,25,50,100",
            description = "Median job durations, as multiples of the refused delay (default: ${DEFAULT-VALUE}).")
    private List<Double> jobRatios;

    @Option(names = "--fullness", paramLabel = "LIST", split = ",", preprocessor = NoEmptyElement.class,
            defaultValue = "0.5,1,2,4",
            description = "Fleet fullness, workers wanted per slot: 0.5 is half full, 4 is 4x oversubscribed"
                    + " (default: ${DEFAULT-VALUE}).")
    private List<Double> fullness;

    @Option(names = "--segments", paramLabel = "N", defaultValue = "40",
            description = "Segments per tenant request (default: ${DEFAULT-VALUE}).")
    private int segments;

    @Option(names = "--stages", paramLabel = "N", defaultValue = "1",
            description = "Stages per segment (default: ${DEFAULT-VALUE}).")
    private int stages;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "20",
            description = "Workers per tenant request (default: ${DEFAULT-VALUE}).")
    private int workers;

    @Option(names = "--tenants", paramLabel = "N", defaultValue = "4",
            description = "Tenant requests sharing the fleet (default: ${DEFAULT-VALUE}).")
    private int tenants;

    @Option(names = "--slots", paramLabel = "N", defaultValue = "4",
            description = "Concurrent jobs per instance (default: ${DEFAULT-VALUE}).")
    private int slots;

    @Option(names = "--refused-delay", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Engine: wait before a refused job dials again, > 0; the job durations are multiples of it"
                    + " (default: 100ms, or $SUBSTREAMS_WORKER_OVERLOADED_RETRY_DELAY, read as simulated time).")
    private Duration refusedDelay;

    @Option(names = "--job-spread", paramLabel = "SIGMA", defaultValue = "0.4",
            description = "Log-normal spread of job run times (default: ${DEFAULT-VALUE}).")
    private double jobSpread;

    @Option(names = "--client-time", paramLabel = "DURATION", defaultValue = "0",
            converter = DurationConverter.class,
            description = "Time the client spends on each segment (default: ${DEFAULT-VALUE}: an instant client).")
    private Duration clientTime;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
            description = "Seed of every random draw (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--time-scale", paramLabel = "X", defaultValue = "10",
            description = "Simulated seconds per wall-clock second, 1..200 (default: ${DEFAULT-VALUE}).")
    private double timeScale;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "orderly-out/sweep.svg",
            description = "Where to write the chart (default: ${DEFAULT-VALUE}).")
    private String output;

    @Option(names = {"-q", "--quiet"},
            description = "No line per point (the heading, the table and the chart's path still print).")
    private boolean quiet;

    private static final List<Strategy> STRATEGIES = List.of(Strategy.ORDERED, Strategy.UNORDERED, Strategy.ORACLE,
            Strategy.WAITING);
    /** The most instances a point's fleet may have: the bound of the main command's --instances. */
    private static final int MAX_INSTANCES = 10_000;
    /** The longest job a point may have: the longest duration any option takes, orderly's --job-duration too. */
    private static final Duration LONGEST_JOB = Duration.ofDays(365);
    /** The failure delay unless its variable sets it: the main command's, for the same reason. */
    private static final Duration FAILURE_DELAY = Duration.ofSeconds(1);

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // The options first: built into the engine's configuration unchecked, a bad one was blamed on the
        // environment, in Java's words.
        checkOptions();
        EngineConfig engine = engine();
        ScenarioOptions.checkLookahead(spec.commandLine(), parent.environment(), engine, workers);
        checkJobs(engine);
        Admission admission = admissionOptions.toAdmission(spec.commandLine());
        Path chart = OutputPath.check(spec.commandLine(), "--output", output);
        long started = System.nanoTime();
        out.printf(Locale.ROOT, "orderly sweep: %s x %s x %s, %s each, %s per instance, refused delay %s,"
                        + " failure delay %s, client %s, no faults, seed %d, time scale %s%s%n",
                RunSupport.tenants(tenants), RunSupport.count(segments, "segment"), RunSupport.stages(stages),
                RunSupport.count(workers, "worker"), RunSupport.count(slots, "slot"),
                DurationConverter.format(engine.refusedDelay()), DurationConverter.format(engine.failureDelay()),
                DurationConverter.format(clientTime), seed, timeScale, room(admission));
        out.flush();
        RunSupport.warmUp();
        List<SweepPoint> points = new ArrayList<>();
        boolean allCompleted = true;
        for (double f : fullness) {
            for (double ratio : jobRatios) {
                Scenario scenario = scenario(engine, ratio, f).withAdmission(admission);
                Map<Strategy, StrategyMetrics> rows = new EnumMap<>(Strategy.class);
                for (Strategy s : STRATEGIES) {
                    if (s == Strategy.WAITING && !admission.hasRoom()) {
                        continue;
                    }
                    RunSpec run = RunSpec.all(s, tenants);
                    RunResult result = new SimulationRun(scenario, run, Duration.ofSeconds(10), p -> { }).run();
                    RunSupport.warnIfBehind(err, scenario, run, result);
                    allCompleted &= result.allCompleted();
                    rows.put(s, StrategyMetrics.of(s.label(), result, result.tenants()));
                }
                // Both coordinates as they ran, not as given: the job is the ratio to the nearest nanosecond (1.5ns
                // ran as 2ns, a third longer, and was called by the ratio asked for), the fleet whole instances.
                double ranRatio = (double) scenario.fleet().jobDuration().toNanos() / engine.refusedDelay().toNanos();
                SweepPoint point = new SweepPoint(ranRatio, actualFullness(scenario), rows.get(Strategy.ORDERED),
                        rows.get(Strategy.UNORDERED), rows.get(Strategy.ORACLE), rows.get(Strategy.WAITING));
                points.add(point);
                if (!quiet) {
                    out.printf(Locale.ROOT, "  fleet %sx full, job %sx refused delay: mean delivery ordered/unordered"
                                    + " %.2fx, ordered/oracle %.2fx%s (%.0f s so far)%n",
                            number(point.fullness()), number(point.jobPerRefusedDelay()),
                            point.orderedOverUnordered(SweepPoint.Measure.MEAN_DELIVERY),
                            point.orderedOverOracle(SweepPoint.Measure.MEAN_DELIVERY),
                            admission.hasRoom() ? String.format(Locale.ROOT, ", waiting room/oracle %.2fx",
                                    point.waitingOverOracle(SweepPoint.Measure.MEAN_DELIVERY)) : "",
                            (System.nanoTime() - started) / 1e9);
                    out.flush();
                }
            }
        }
        out.println();
        out.print(table(points));
        int code = allCompleted ? 0 : 1;
        try {
            new SweepChart(String.format(Locale.ROOT, "orderly sweep: %s x %s x %s, %s each, refused delay %s,"
                            + " seed %d", RunSupport.tenants(tenants), RunSupport.count(segments, "segment"),
                    RunSupport.stages(stages), RunSupport.count(workers, "worker"),
                    DurationConverter.format(engine.refusedDelay()), seed), points).write(chart);
            out.println("chart: " + chart);
        } catch (IOException e) {
            err.println("orderly: cannot write the chart to " + chart + ": " + OutputPath.describe(e));
            code = 1;
        }
        out.printf(Locale.ROOT, "wall-clock time: %.1f s%n", (System.nanoTime() - started) / 1e9);
        out.flush();
        return code;
    }

    /**
     * The waiting room the sweep's room columns measure, as orderly's note says it (nothing when there is none, as
     * there are no such columns): without it, sweeps of different rooms printed the same heading. A dial waits at no
     * more instances than a point's fleet has (SimulatedTier2 takes the smaller): say the most any point ran.
     */
    private String room(Admission admission) {
        if (!admission.hasRoom()) {
            return "";
        }
        long most = fullness.stream().mapToLong(this::instances).max().orElse(1);
        return String.format(Locale.ROOT, ", waiting room of %s, a dial waits up to %s at up to %s at once",
                RunSupport.count(admission.room(), "seat"), DurationConverter.format(admission.maxWait()),
                RunSupport.count(Math.min(admission.waitAt(), most), "instance"));
    }

    private EngineConfig engine() {
        EngineConfig fromEnv;
        try {
            fromEnv = EngineConfig.fromEnvironment(parent.environment());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "environment: " + e.getMessage());
        }
        EngineConfig.Builder b = fromEnv.toBuilder();
        // As the main command: the variables set the delays, an option overrides its variable.
        if (!parent.environment().containsKey(EngineConfig.ENV_FAILURE_DELAY)) {
            b.failureDelay(FAILURE_DELAY);
        }
        if (refusedDelay != null) {
            b.refusedDelay(refusedDelay);
        } else if (!fromEnv.refusedDelay().isPositive()) {
            throw new ParameterException(spec.commandLine(), "environment: " + EngineConfig.ENV_REFUSED_DELAY
                    + " must be > 0 for orderly sweep (its job durations are multiples of it), was '"
                    + parent.environment().get(EngineConfig.ENV_REFUSED_DELAY) + "'");
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private void checkOptions() {
        for (double r : jobRatios) {
            check("--job-ratios", r > 0 && r <= 10_000, r, "> 0 and <= 10000");
        }
        for (double f : fullness) {
            check("--fullness", f > 0 && f <= 100, f, "> 0 and <= 100");
        }
        check("--segments", segments >= 1 && segments <= 10_000, segments, "between 1 and 10000");
        check("--stages", stages >= 1 && stages <= 16, stages, "between 1 and 16");
        check("--workers", workers >= 1 && workers <= 10_000, workers, "between 1 and 10000");
        check("--tenants", tenants >= 1 && tenants <= 1_000, tenants, "between 1 and 1000");
        check("--slots", slots >= 1 && slots <= 10_000, slots, "between 1 and 10000");
        // A point's fleet has as many instances as its fullness asks for: a tiny fullness asked for billions, which
        // overflowed an int (exit 1, 'instances must be >= 1, was -1474836480', after the heading) or ran out of
        // memory. The main command's --instances bound holds here too.
        for (double f : fullness) {
            if (instances(f) > MAX_INSTANCES) {
                throw new ParameterException(spec.commandLine(), "--fullness must be >= "
                        + number((double) tenants * workers / ((double) slots * MAX_INSTANCES)) + " for "
                        + tenants * workers + " workers on " + slots + " slots per instance (at most " + MAX_INSTANCES
                        + " instances), was " + number(f));
            }
        }
        // A point given twice ran twice: two rows of one label with different figures, a chart line drawn back and
        // forth between them.
        Map<Long, Double> fleets = new HashMap<>();
        for (double f : fullness) {
            Double earlier = fleets.putIfAbsent(instances(f), f);
            if (earlier != null) {
                throw twice("--fullness", f, earlier, "fleet", RunSupport.count(instances(f), "instance") + " of "
                        + RunSupport.count(slots, "slot"));
            }
        }
        if (refusedDelay != null) {
            check("--refused-delay", refusedDelay.isPositive(), ScenarioOptions.written(spec.commandLine(),
                    "--refused-delay", DurationConverter.format(refusedDelay)), "> 0");
        }
        check("--job-spread", jobSpread >= 0 && jobSpread <= 3, jobSpread, "between 0 and 3");
        check("--client-time", !clientTime.isNegative(), DurationConverter.format(clientTime), ">= 0");
        check("--time-scale", ScenarioOptions.isTimeScale(timeScale),
                ScenarioOptions.written(spec.commandLine(), "--time-scale", timeScale),
                ScenarioOptions.TIME_SCALE_RULE);
    }

    /**
     * Each ratio's job takes some time: one that rounds to no time (ratio 0.4 of a 1ns refused delay) failed after the
     * heading and the warm-up, exit 1, with the fleet's "job duration must be > 0, was PT0S".
     */
    private void checkJobs(EngineConfig engine) {
        for (double r : jobRatios) {
            // Each factor was bounded alone (a refused delay of up to a year, a ratio of up to 10000): their product
            // reached 10000 years, which jobOf cut to the 292 a long holds in nanoseconds, and the sweep then ran for
            // ever. A job is bounded as orderly's --job-duration is: a year at most.
            if (engine.refusedDelay().toNanos() * r > LONGEST_JOB.toNanos()) {
                throw new ParameterException(spec.commandLine(), "--job-ratios must give jobs of at most a year"
                        + " (8760h): " + number(r) + " x the refused delay of "
                        + DurationConverter.format(engine.refusedDelay()) + " is longer, was " + number(r));
            }
        }
        for (double r : jobRatios) {
            if (jobOf(engine, r).isZero()) {
                throw new ParameterException(spec.commandLine(), "--job-ratios must give jobs of at least 1ns: "
                        + number(r) + " x the refused delay of " + DurationConverter.format(engine.refusedDelay())
                        + " is no time, was " + number(r));
            }
        }
        Map<Duration, Double> jobs = new HashMap<>();
        for (double r : jobRatios) {
            Double earlier = jobs.putIfAbsent(jobOf(engine, r), r);
            if (earlier != null) {
                throw twice("--job-ratios", r, earlier, "job", DurationConverter.format(jobOf(engine, r)));
            }
        }
    }

    /** The refusal of a grid whose {@code option} gives one point twice: {@code value} as {@code earlier} did. */
    private ParameterException twice(String option, double value, double earlier, String what, String which) {
        // The defaults collide too on a small scenario (one tenant of one worker: every fullness is one instance);
        // the user who never gave the option is told it is its default, and what to give instead.
        String given = spec.commandLine().getParseResult().hasMatchedOption(option) ? ""
                : " (its default; give " + option + " with values that make different points)";
        return new ParameterException(spec.commandLine(), value == earlier
                ? option + " gives " + number(value) + " twice: give each point once" + given
                : option + " " + number(value) + " gives the same " + what + " as " + number(earlier) + ", " + which
                        + ": give each point once" + given);
    }

    /** A point's job duration: {@code ratio} times the refused delay, to the nearest nanosecond. */
    private static Duration jobOf(EngineConfig engine, double ratio) {
        return Duration.ofNanos(Math.round(engine.refusedDelay().toNanos() * ratio));
    }

    private void check(String option, boolean ok, Object value, String rule) {
        if (!ok) {
            throw new ParameterException(spec.commandLine(), option + " must be " + rule + ", was " + value);
        }
    }

    /** The instances of a point of fullness {@code full}: as many as it asks for, at least one. */
    private long instances(double full) {
        return Math.max(1, Math.round((double) tenants * workers / (full * slots)));
    }

    /** The scenario of one point: as many instances as the fullness asks for, at least one. */
    private Scenario scenario(EngineConfig engine, double jobRatio, double full) {
        int instances = (int) instances(full); // at most MAX_INSTANCES: checked with the options
        Duration job = jobOf(engine, jobRatio);
        FleetConfig fleet = new FleetConfig(instances, slots, job, jobSpread, FaultRates.NONE, seed,
                new TimeScale(timeScale));
        return new Scenario(segments, stages, workers, tenants, fleet, clientTime, engine.refusedDelay(),
                engine.failureDelay(), engine);
    }

    private double actualFullness(Scenario s) {
        return (double) tenants * workers / s.fleet().capacity();
    }

    /**
     * The sweep's table: one row per point, headed in words over two lines (the group, then the column). Ratios are
     * of ordered launch to the baseline (under 1: ordered launch wins) and to the oracle (1 is the limit), and, when
     * the sweep ran with the waiting room, of ordered launch with the room to the oracle and to ordered launch.
     */
    static String table(List<SweepPoint> points) {
        boolean room = points.stream().anyMatch(p -> p.waiting() != null);
        String row = "%-9s %-15s %9s %9s %9s   %13s %13s %9s   %13s %13s %9s" + (room ? "   %13s %13s %9s   %13s" : "")
                + "%n";
        StringBuilder t = new StringBuilder();
        t.append(String.format(Locale.ROOT, "%-9s %-15s %-29s   %-37s   %-37s%s%n", "fleet", "job duration",
                "mean delivery (simulated s)", "ordered / unordered (under 1: a win)", "ordered / oracle (1: the limit)",
                room ? "   waiting room / oracle                   room / ordered" : ""));
        List<Object> heads = new java.util.ArrayList<>(List.of("fullness", "/ refused delay", "ordered", "unordered",
                "oracle", "mean delivery", "first segment", "total", "mean delivery", "first segment", "total"));
        if (room) {
            heads.addAll(List.of("mean delivery", "first segment", "total", "mean delivery"));
        }
        t.append(String.format(Locale.ROOT, row, heads.toArray()));
        for (SweepPoint p : points) {
            List<Object> cells = new java.util.ArrayList<>(List.of(number(p.fullness()) + "x",
                    number(p.jobPerRefusedDelay()) + "x",
                    seconds(p.ordered().meanDelivery()), seconds(p.unordered().meanDelivery()),
                    seconds(p.oracle().meanDelivery()),
                    ratio(p.orderedOverUnordered(SweepPoint.Measure.MEAN_DELIVERY)),
                    ratio(p.orderedOverUnordered(SweepPoint.Measure.FIRST_SEGMENT)),
                    ratio(p.orderedOverUnordered(SweepPoint.Measure.TOTAL)),
                    ratio(p.orderedOverOracle(SweepPoint.Measure.MEAN_DELIVERY)),
                    ratio(p.orderedOverOracle(SweepPoint.Measure.FIRST_SEGMENT)),
                    ratio(p.orderedOverOracle(SweepPoint.Measure.TOTAL))));
            if (room) {
                cells.addAll(List.of(ratio(p.waitingOverOracle(SweepPoint.Measure.MEAN_DELIVERY)),
                        ratio(p.waitingOverOracle(SweepPoint.Measure.FIRST_SEGMENT)),
                        ratio(p.waitingOverOracle(SweepPoint.Measure.TOTAL)),
                        ratio(p.waitingOverOrdered(SweepPoint.Measure.MEAN_DELIVERY))));
            }
            t.append(String.format(Locale.ROOT, row, cells.toArray()));
        }
        return t.toString();
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.2fs", s);
    }

    private static String ratio(double r) {
        return String.format(Locale.ROOT, "%.2fx", r);
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
