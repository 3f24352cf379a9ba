package dev.orderly.bench.cost;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.RequestPlan;
import dev.orderly.bench.cost.Comparison.Figure;
import dev.orderly.bench.scale.HeapWatch;
import dev.orderly.engine.Orderly;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The engine's cost per job against {@link HandWrittenExecutor}, interleaved in one JVM, printed for people: the
 * medians of {@code rounds} rounds and the Orderly/hand-written ratios. Instant jobs, so what is measured is the
 * cost of running a job, not the job.
 *
 * <p>Scenarios ({@code --only=a,b,...} picks some): {@code one-stage} and {@code two-stages} ({@code segments}
 * segments on {@code workers} workers, caller on a platform thread), {@code virtual-caller} (one stage, the caller a
 * virtual thread), {@code refusals} (one stage, half the dials refused at random, both sides redialling at once:
 * the engine with {@code refusedDelay} 0), {@code small-requests} ({@code small-requests} requests at once of
 * {@code small-segments} segments on {@code small-workers} workers: wall time and heap), {@code windowed-requests}
 * (the same with {@code windowed-requests} requests of {@code windowed-segments} segments, each longer than its
 * look-ahead of twice its workers, so the window, not the workers, holds it back), {@code jfr} (one stage with
 * a JFR recording running, Orderly's events on and off, and the hand-written executor recording the same events per
 * job: the floor of the "events on" figure) and {@code ten-million} ({@code long-segments} segments, one
 * stage: the rate, and the live heap at every {@code checkpoint} segments).
 *
 * <p>The one-request scenarios (one stage, two stages, the virtual caller, refusals) also print, for each side and
 * in each round's line, the kernel's share of the process's CPU time and the context switches of its OS threads per
 * 1,000 segments ({@link KernelCounters}). A side whose OS threads park and are woken by the kernel (a futex call and
 * a context switch each time) spends that time there instead of in its own work: on a small machine the
 * hand-written executor's slow rounds are the ones whose OS threads switch most.
 *
 * <p>The request scope is chosen once per JVM (system property {@code orderly.scope}). This JVM measures the scope
 * it was started with; unless {@code --other-scope=false}, it then starts a second JVM with {@code
 * -Dorderly.scope=threads} (and without {@code --enable-preview}) for {@code one-stage}, {@code two-stages}, {@code
 * virtual-caller}, {@code small-requests} and {@code windowed-requests}. {@code --engine-only=true} runs the engine's
 * side of the two-sided scenarios only (for a profile of the engine alone), {@code --hand-written-only=true} their
 * hand-written side only (to see what the engine's presence in the JVM does to the baseline); at least {@code
 * --warmup} rounds are run before the measured ones, and more until the JIT is quiet ({@link WarmUp}). Exit code 0
 * when every run delivered every segment in order, 1 otherwise, 2 for a bad argument.
 */
public final class EngineCost {

    private static final Map<String, String> DEFAULTS = new LinkedHashMap<>();
    private static final List<String> SCENARIOS = List.of("one-stage", "two-stages", "virtual-caller", "refusals",
            "small-requests", "windowed-requests", "jfr", "ten-million");
    private static final Figure RATE = new Figure("rate", "segments/s", 0);
    private static final Figure DIALS = new Figure("dials/segment", "", 2);
    private static final Figure CPU = new Figure("CPU", "us/segment", 2);
    private static final Figure ALLOCATED = new Figure("allocated", "B/segment", 0);
    private static final Figure KERNEL = new Figure("kernel", "% of CPU", 0);
    private static final Figure SWITCHES = new Figure("OS thread switches", "per 1,000 segments", 1);
    /** The most workers whose look-ahead of 2 x workers (the default config's) Engine.run accepts: 2^20 / 2. */
    static final int MAX_WORKERS = 1 << 19;
    private static final String OTHER_SCOPE_SCENARIOS =
            "one-stage,two-stages,virtual-caller,small-requests,windowed-requests";

    static {
        DEFAULTS.put("rounds", "5");
        DEFAULTS.put("warmup", "2");
        DEFAULTS.put("segments", "200000");
        DEFAULTS.put("workers", "100");
        DEFAULTS.put("small-requests", "1000");
        DEFAULTS.put("small-segments", "20");
        DEFAULTS.put("small-workers", "10");
        DEFAULTS.put("windowed-requests", "100");
        DEFAULTS.put("windowed-segments", "200");
        DEFAULTS.put("long-segments", "10000000");
        DEFAULTS.put("checkpoint", "2000000");
        DEFAULTS.put("only", String.join(",", SCENARIOS));
        DEFAULTS.put("other-scope", "true");
        DEFAULTS.put("engine-only", "false");
        DEFAULTS.put("hand-written-only", "false");
    }

    private final Map<String, String> options;
    private final List<Comparison.Result> results = new ArrayList<>();

    private EngineCost(Map<String, String> options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>(DEFAULTS);
        try {
            for (String arg : args) {
                parseOption(arg, options);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("EngineCost: " + e.getMessage());
            System.err.println("usage: EngineCost [--name=value ...], names and defaults: " + DEFAULTS);
            System.exit(2);
        }
        if (Boolean.parseBoolean(options.get("engine-only"))
                && Boolean.parseBoolean(options.get("hand-written-only"))) {
            System.err.println("EngineCost: --engine-only=true and --hand-written-only=true leave no side to run");
            System.exit(2);
        }
        EngineCost cost = new EngineCost(options);
        System.out.printf(Locale.ROOT, "JDK %s, %d CPU(s), max heap %s, orderly.scope=%s, JVM flags %s%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors(), HeapWatch.mib(HeapWatch.maxBytes()),
                System.getProperty("orderly.scope", "auto"), ManagementFactory.getRuntimeMXBean().getInputArguments());
        cost.runAll();
        cost.printSummary();
        int exit = 0;
        if (Boolean.parseBoolean(options.get("other-scope"))) {
            exit = otherScope(options);
        }
        System.exit(exit);
    }

    static void parseOption(String arg, Map<String, String> options) {
        int eq = arg.indexOf('=');
        if (!arg.startsWith("--") || eq < 0) {
            throw new IllegalArgumentException("expected --name=value, was '" + arg + "'");
        }
        String name = arg.substring(2, eq);
        String value = arg.substring(eq + 1).replace("_", "");
        if (!options.containsKey(name)) {
            throw new IllegalArgumentException("unknown option --" + name);
        }
        switch (name) {
            case "only" -> {
                for (String scenario : value.split(",")) {
                    if (!SCENARIOS.contains(scenario)) {
                        throw new IllegalArgumentException("--only: unknown scenario '" + scenario + "'; known: "
                                + SCENARIOS);
                    }
                }
            }
            case "other-scope", "engine-only", "hand-written-only" -> {
                if (!value.equals("true") && !value.equals("false")) {
                    throw new IllegalArgumentException("--" + name + " must be true or false, was '" + value + "'");
                }
            }
            default -> {
                long parsed;
                try {
                    parsed = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--" + name + " must be a whole number, was '" + value + "'");
                }
                long min = name.equals("warmup") ? 0 : 1;
                // Engine.run refuses a look-ahead (2 x workers with the default config) over 2^20 segments: more
                // workers would end the run in a stack trace instead of here.
                long max = name.endsWith("workers") ? MAX_WORKERS
                        : name.endsWith("segments") || name.equals("checkpoint") ? Long.MAX_VALUE : Integer.MAX_VALUE;
                if (parsed < min || parsed > max) {
                    throw new IllegalArgumentException("--" + name + " must be between " + min + " and " + max
                            + ", was " + parsed);
                }
            }
        }
        options.put(name, value);
    }

    private long longOption(String name) {
        return Long.parseLong(options.get(name));
    }

    private int intOption(String name) {
        return Math.toIntExact(longOption(name));
    }

    /**
     * {@code requests} requests at once of {@code segments} segments on {@code small-workers} workers each: wall time
     * and heap, Orderly against hand-written.
     */
    private void manyRequests(Runs.Runner orderly, Runs.Runner hand, int rounds, int requests, long segments,
            String note) throws Exception {
        RequestPlan plan = new RequestPlan(0, segments, 1, intOption("small-workers"));
        Figure[] figures = {new Figure("wall", "ms", 1), new Figure("peak used heap", "MiB", 1),
                new Figure("allocated", "MiB", 1)};
        Comparison c = new Comparison(requests + " requests at once, " + plan.segmentCount() + " segments x "
                + plan.workers() + " workers each" + note, figures);
        int[] sides = sides(c, () -> Runs.manyRequests(orderly, requests, plan),
                () -> Runs.manyRequests(hand, requests, plan));
        int o = sides[0];
        int h = sides[1];
        if (o >= 0 && h >= 0) {
            c.ratio("wall Orderly/hand-written", o, h, 0);
            c.ratio("peak used heap Orderly/hand-written", o, h, 1);
            c.ratio("allocated Orderly/hand-written", o, h, 2);
        }
        results.add(c.run(intOption("warmup"), rounds));
    }

    private boolean picked(String scenario) {
        return Arrays.asList(options.get("only").split(",")).contains(scenario);
    }

    private void runAll() throws Exception {
        int rounds = intOption("rounds");
        Engine engine = Orderly.engine(EngineConfig.defaults());
        Runs.Runner orderly = Runs.engine(engine);
        Runs.Runner hand = Runs.handWritten();
        int workers = intOption("workers");
        RequestPlan oneStage = new RequestPlan(0, longOption("segments"), 1, workers);
        RequestPlan twoStages = new RequestPlan(0, longOption("segments"), 2, workers);
        Figure rate = RATE;
        Figure dials = DIALS;
        Figure cpu = CPU;
        Figure[] request = {rate, dials, cpu, ALLOCATED, KERNEL, SWITCHES};

        if (picked("one-stage")) {
            pair("1 stage, caller on a platform thread", rounds, request,
                    () -> Runs.oneRequest(orderly, oneStage, 0, false),
                    () -> Runs.oneRequest(hand, oneStage, 0, false));
        }
        if (picked("two-stages")) {
            pair("2 stages, caller on a platform thread", rounds, request,
                    () -> Runs.oneRequest(orderly, twoStages, 0, false),
                    () -> Runs.oneRequest(hand, twoStages, 0, false));
        }
        if (picked("virtual-caller")) {
            pair("1 stage, caller on a virtual thread", rounds, request,
                    () -> Runs.oneRequest(orderly, oneStage, 0, true),
                    () -> Runs.oneRequest(hand, oneStage, 0, true));
        }
        if (picked("refusals")) {
            Runs.Runner eager = Runs.engine(Orderly.engine(EngineConfig.builder().refusedDelay(Duration.ZERO).build()));
            pair("1 stage, 50 % of dials refused at random (refusedDelay 0)", rounds, request,
                    () -> Runs.oneRequest(eager, oneStage, 0.5, false),
                    () -> Runs.oneRequest(hand, oneStage, 0.5, false));
        }
        if (picked("small-requests")) {
            manyRequests(orderly, hand, rounds, intOption("small-requests"), longOption("small-segments"), "");
        }
        if (picked("windowed-requests")) {
            manyRequests(orderly, hand, rounds, intOption("windowed-requests"), longOption("windowed-segments"),
                    " (each request longer than its look-ahead)");
        }
        if (picked("jfr")) {
            Runs.Runner handWithEvents = Runs.handWrittenWithEvents();
            Comparison.Side plain = () -> Runs.oneRequest(orderly, oneStage, 0, false);
            Comparison.Side plainHand = () -> Runs.oneRequest(hand, oneStage, 0, false);
            Comparison.Side handEvents = () -> Runs.oneRequest(handWithEvents, oneStage, 0, false);
            Comparison c = new Comparison("1 stage, with and without a JFR recording (stock 'default' profile)", rate,
                    dials, cpu, ALLOCATED);
            int none = c.side("Orderly, no recording", plain);
            int on = c.side("Orderly, recording, Orderly events on", Jfr.recording(Jfr.ORDERLY_EVENTS, plain));
            int off = c.side("Orderly, recording, Orderly events off", Jfr.recording(List.of(), plain));
            int handNone = c.side("hand-written, no recording", plainHand);
            int handOn = c.side("hand-written, recording", Jfr.recording(List.of(), plainHand));
            // The floor of "events on": the hand-written executor recording the same three events per job.
            int handEventsOn = c.side("hand-written, recording, the same events on",
                    Jfr.recording(HandWrittenEvents.NAMES, handEvents));
            c.ratio("Orderly events on / no recording", on, none, 0);
            c.ratio("Orderly events off / no recording", off, none, 0);
            c.ratio("Orderly events on / events off", on, off, 0);
            c.ratio("hand-written recording / no recording", handOn, handNone, 0);
            c.ratio("hand-written, the same events on / no recording", handEventsOn, handNone, 0);
            c.ratio("Orderly/hand-written, no recording", none, handNone, 0);
            c.ratio("Orderly/hand-written, both recording their events", on, handEventsOn, 0);
            // The same by CPU per segment, inverted so that it reads like the rate ratios (1 = no cost).
            c.ratio("CPU: no recording / Orderly events on", none, on, 2);
            c.ratio("CPU: no recording / Orderly events off", none, off, 2);
            c.ratio("CPU: hand-written no recording / recording", handNone, handOn, 2);
            c.ratio("CPU: hand-written no recording / the same events on", handNone, handEventsOn, 2);
            results.add(c.run(intOption("warmup"), rounds));
        }
        if (picked("ten-million")) {
            RequestPlan ten = new RequestPlan(0, longOption("long-segments"), 1, workers);
            long checkpoint = longOption("checkpoint");
            pair(ten.segmentCount() + " segments, 1 stage", rounds, new Figure[] {rate,
                    new Figure("live heap spread over checkpoints", "MiB", 2),
                    new Figure("live heap max", "MiB", 1)},
                    () -> Runs.longRequest(orderly, ten, checkpoint),
                    () -> Runs.longRequest(hand, ten, checkpoint));
        }
    }

    private void pair(String name, int rounds, Figure[] figures, Comparison.Side orderly, Comparison.Side hand)
            throws Exception {
        Comparison c = new Comparison(name, figures);
        int[] sides = sides(c, orderly, hand);
        int o = sides[0];
        int h = sides[1];
        if (o >= 0 && h >= 0) {
            c.ratio(figures[0].name() + " Orderly/hand-written", o, h, 0);
            if (figures.length > 3 && figures[2] == CPU) {
                c.ratio("CPU hand-written/Orderly", h, o, 2);
                c.ratio("allocated Orderly/hand-written", o, h, 3);
            }
        }
        if (figures.length > 5 && figures[4] == KERNEL) {
            c.showInRounds(4).showInRounds(5);
        }
        results.add(c.run(intOption("warmup"), rounds));
    }

    /**
     * Adds the sides of a two-sided scenario that the options leave in ({@code --engine-only}, {@code
     * --hand-written-only}); returns the indexes of the engine's side and the hand-written side, -1 for one left out.
     */
    private int[] sides(Comparison c, Comparison.Side orderly, Comparison.Side hand) {
        int o = Boolean.parseBoolean(options.get("hand-written-only")) ? -1 : c.side("Orderly", orderly);
        int h = Boolean.parseBoolean(options.get("engine-only")) ? -1 : c.side("hand-written", hand);
        return new int[] {o, h};
    }

    private void printSummary() {
        System.out.printf(Locale.ROOT, "%nSummary (orderly.scope=%s; medians of %s rounds; a ratio is the median of the"
                + " per-round ratios, range in brackets)%n", System.getProperty("orderly.scope", "auto"),
                options.get("rounds"));
        System.out.println("| scenario | ratio | numerator median | denominator median | ratio | load before / after |");
        System.out.println("|---|---|---|---|---|---|");
        for (Comparison.Result r : results) {
            for (int i = 0; i < r.ratios().size(); i++) {
                Comparison.Ratio ratio = r.ratios().get(i);
                Figure figure = r.figures().get(ratio.figure());
                System.out.printf(Locale.ROOT, "| %s | %s | %s %s | %s %s | %s (%s-%s) | %s / %s |%n",
                        r.scenario(), ratio.label(),
                        Comparison.format(r.medians()[ratio.numerator()][ratio.figure()], figure.decimals()),
                        figure.unit(),
                        Comparison.format(r.medians()[ratio.denominator()][ratio.figure()], figure.decimals()),
                        figure.unit(), Comparison.format(r.ratioMedians()[i], 3),
                        Comparison.format(r.ratioMins()[i], 3), Comparison.format(r.ratioMaxes()[i], 3), r.loadBefore(),
                        r.loadAfter());
            }
        }
    }

    /** Runs a subset again in a JVM whose request scope is the plain-threads one; returns its exit code. */
    private static int otherScope(Map<String, String> options) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.equals("--enable-preview") && !arg.startsWith("-Dorderly.scope=")) {
                command.add(arg);
            }
        }
        command.add("-Dorderly.scope=threads");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(EngineCost.class.getName());
        for (Map.Entry<String, String> option : options.entrySet()) {
            if (option.getKey().equals("only")) {
                List<String> subset = new ArrayList<>();
                for (String scenario : OTHER_SCOPE_SCENARIOS.split(",")) {
                    if (Arrays.asList(option.getValue().split(",")).contains(scenario)) {
                        subset.add(scenario);
                    }
                }
                if (subset.isEmpty()) {
                    return 0;
                }
                command.add("--only=" + String.join(",", subset));
            } else if (option.getKey().equals("other-scope")) {
                command.add("--other-scope=false");
            } else {
                command.add("--" + option.getKey() + "=" + option.getValue());
            }
        }
        System.out.printf(Locale.ROOT, "%n==== the same in a JVM with -Dorderly.scope=threads%n");
        System.out.flush();
        Process child = new ProcessBuilder(command).inheritIO().start();
        try {
            return child.waitFor();
        } finally {
            child.destroyForcibly();
        }
    }
}
