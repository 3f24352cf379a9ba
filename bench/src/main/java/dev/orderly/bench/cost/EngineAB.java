package dev.orderly.bench.cost;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Two or more builds of the engine side by side in one JVM: each engine's class files (a {@code
 * engine/target/classes} directory of some commit) are loaded by a class loader of their own, with this module's
 * benchmark classes, and the same one-request run ({@link Runs#oneRequest}) is timed on each in turn, the order
 * reversed every round, after warm-up rounds until the JIT is quiet ({@link WarmUp}). Prints each engine's medians
 * and, for each engine after the first, the median of its per-round CPU ratio to the first. With {@code
 * --requests=N} (N above 1) the run timed is {@link Runs#manyRequests} instead: N requests of the plan at once, each
 * on its own virtual thread, and the figures are the wall time, the peak used heap and the bytes allocated. With
 * {@code --recording=true} each timed one-request run has a JFR recording going (the stock {@code default} profile,
 * Orderly's events on, as in EngineCost's {@code jfr} scenario): for changes to the engine's JFR path.
 *
 * <p>Why one JVM: the JVMs of two separate runs differ by more than a change of a few per cent (JIT decisions, the
 * machine's load when each ran); rounds interleaved in one JVM see the same machine. Each loader has its own copy of
 * every engine and benchmark class, so each build is compiled and profiled by the JIT on its own.
 *
 * <pre>
 * java --enable-preview -Dorderly.scope=structured -cp &lt;bench class path&gt; dev.orderly.bench.cost.EngineAB \
 *     [--rounds=16] [--warmup=4] [--segments=300000] [--stages=1] [--workers=100] [--refusals=0] \
 *     [--virtual-caller=false] [--requests=1] [--recording=false] before/engine/target/classes after/engine/target/classes
 * </pre>
 *
 * Exit code 0 when every run delivered every segment in order, 1 otherwise, 2 for a bad argument.
 */
public final class EngineAB {

    private static final String[] CHILD_FIRST = {"dev.orderly.engine.", "dev.orderly.bench."};

    private EngineAB() {
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("EngineAB: " + e.getMessage());
            System.err.println("usage: EngineAB [--rounds=N] [--warmup=N] [--segments=N] [--stages=N] [--workers=N]"
                    + " [--refusals=P] [--virtual-caller=true|false] [--requests=N] [--recording=true|false]"
                    + " <engine classes dir>"
                    + " <engine classes dir>...");
            System.exit(2);
            return;
        }
        try {
            run(options);
        } catch (InvocationTargetException e) {
            System.err.println("EngineAB: a run failed: " + e.getCause());
            e.getCause().printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    private static void run(Options o) throws Exception {
        if (o.requests > 1) {
            runMany(o);
            return;
        }
        int n = o.engines.size();
        Build[] builds = Build.loadAll(o, false);
        System.out.printf(Locale.ROOT, "JDK %s, %d CPU(s), orderly.scope=%s; %d rounds (after at least %d warm-up)"
                + " of %,d segments, %d stage(s), %d workers, refusals %.2f, caller on a %s thread%s; load %s%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors(),
                System.getProperty("orderly.scope", "auto"), o.rounds, o.warmup, o.segments, o.stages, o.workers,
                o.refusals, o.virtualCaller ? "virtual" : "platform",
                o.recording ? ", a JFR recording with Orderly's events on" : "", LoadAverage.now());
        // Runs.oneRequest's figures: rate, dials per segment, CPU, allocation.
        double[][][] figures = interleaved(o, builds, build -> o.recording
                ? Jfr.recording(Jfr.ORDERLY_EVENTS, () -> build.oneRequest(o)).run()
                : build.oneRequest(o));
        double[][] rate = figures[0];
        double[][] cpu = figures[2];
        double[][] allocated = figures[3];
        for (int i = 0; i < n; i++) {
            System.out.printf(Locale.ROOT, "engine %d (%s): rate %,.0f segments/s, CPU %.2f us/segment, allocated %.0f"
                    + " B/segment (medians)%n", i, o.engines.get(i), median(rate[i]), median(cpu[i]),
                    median(allocated[i]));
        }
        for (int i = 1; i < n; i++) {
            double[] cpuRatio = new double[o.rounds];
            double[] rateRatio = new double[o.rounds];
            for (int r = 0; r < o.rounds; r++) {
                cpuRatio[r] = Comparison.ratio(cpu[i][r], cpu[0][r]);
                rateRatio[r] = Comparison.ratio(rate[i][r], rate[0][r]);
            }
            System.out.printf(Locale.ROOT, "engine %d / engine 0, per round: CPU %s, rate %s (medians, ranges)%n", i,
                    ratios(cpuRatio), ratios(rateRatio));
        }
        System.out.printf(Locale.ROOT, "load after: %s; %s%n", LoadAverage.now(), CoreToCore.now());
    }

    /**
     * One engine build, loaded by a class loader of its own: its runner, the {@link Runs} method that times it
     * ({@code oneRequest}, or {@code manyRequests} when {@code many}) and its plan, each of the build's own classes.
     */
    private record Build(Object runner, Method run, Object plan) {

        /** Every build the command line names, in its order. */
        static Build[] loadAll(Options o, boolean many) throws Exception {
            Build[] builds = new Build[o.engines.size()];
            for (int i = 0; i < builds.length; i++) {
                builds[i] = load(o, i, many);
            }
            return builds;
        }

        static Build load(Options o, int i, boolean many) throws Exception {
            ClassLoader loader = new ChildFirst("engine-" + i, o.engines.get(i));
            Class<?> runs = Class.forName(Runs.class.getName(), true, loader);
            Class<?> runnerType = Class.forName(Runs.Runner.class.getName(), true, loader);
            Class<?> planType = Class.forName("dev.orderly.api.RequestPlan", true, loader);
            Method run = many ? runs.getDeclaredMethod("manyRequests", runnerType, int.class, planType)
                    : runs.getDeclaredMethod("oneRequest", runnerType, planType, double.class, boolean.class);
            run.setAccessible(true);
            Object plan = planType.getConstructor(long.class, long.class, int.class, int.class)
                    .newInstance(0L, o.segments, o.stages, o.workers);
            return new Build(engineRunner(loader, runs, o), run, plan);
        }

        /** One request of the plan ({@link Runs#oneRequest}); its figures. */
        double[] oneRequest(Options o) throws ReflectiveOperationException {
            return (double[]) run.invoke(null, runner, plan, o.refusals, o.virtualCaller);
        }

        /** {@code o.requests} requests of the plan at once ({@link Runs#manyRequests}); their figures. */
        double[] manyRequests(Options o) throws ReflectiveOperationException {
            return (double[]) run.invoke(null, runner, o.requests, plan);
        }
    }

    /** The engine of {@code loader}'s build with the default config (refusals: redial at once), as a Runs.Runner. */
    private static Object engineRunner(ClassLoader loader, Class<?> runs, Options o) throws Exception {
        Class<?> orderly = Class.forName("dev.orderly.engine.Orderly", true, loader);
        Class<?> configType = Class.forName("dev.orderly.api.EngineConfig", true, loader);
        Object config = configType.getMethod("defaults").invoke(null);
        if (o.refusals > 0) {
            // As EngineCost's refusal scenario: a refused job redials at once, as the hand-written one does.
            Object builder = configType.getMethod("builder").invoke(null);
            builder.getClass().getMethod("refusedDelay", java.time.Duration.class)
                    .invoke(builder, java.time.Duration.ZERO);
            config = builder.getClass().getMethod("build").invoke(builder);
        }
        Object engine = orderly.getMethod("engine", configType).invoke(null, config);
        Class<?> engineType = Class.forName("dev.orderly.api.Engine", true, loader);
        Method wrap = runs.getDeclaredMethod("engine", engineType);
        wrap.setAccessible(true);
        return wrap.invoke(null, engine);
    }

    /** One timed run of a build; its figures. */
    @FunctionalInterface
    private interface Timed {
        double[] run(Build build) throws Exception;
    }

    /**
     * Warms the builds up until the JIT is quiet, then times {@code o.rounds} rounds of {@code timed} on each, the
     * order reversed every round, each run from a collected heap (as in EngineCost, so no run pays for another's
     * garbage); prints the warm-up and what the JIT compiled meanwhile. Returns figure f of build i in round r at
     * {@code [f][i][r]}.
     */
    private static double[][][] interleaved(Options o, Build[] builds, Timed timed) throws Exception {
        int n = builds.length;
        System.out.printf(Locale.ROOT, "%s%n", WarmUp.run(o.warmup, () -> {
            for (Build build : builds) {
                System.gc();
                timed.run(build);
            }
        }));
        long compiledBefore = WarmUp.compileMillis();
        double[][][] figures = null;
        for (int round = 0; round < o.rounds; round++) {
            for (int k = 0; k < n; k++) {
                int i = round % 2 == 0 ? k : n - 1 - k;
                System.gc();
                double[] measured = timed.run(builds[i]);
                if (figures == null) {
                    figures = new double[measured.length][n][o.rounds];
                }
                for (int f = 0; f < measured.length; f++) {
                    figures[f][i][round] = measured[f];
                }
            }
        }
        System.out.printf(Locale.ROOT, "the JIT compiled %d ms during the measured rounds%n",
                WarmUp.compileMillis() - compiledBefore);
        return figures;
    }

    /** As {@link #run}, for {@code o.requests} requests at once: wall time, peak used heap and allocation. */
    private static void runMany(Options o) throws Exception {
        int n = o.engines.size();
        Build[] builds = Build.loadAll(o, true);
        System.out.printf(Locale.ROOT, "JDK %s, %d CPU(s), orderly.scope=%s; %d rounds (after at least %d warm-up)"
                + " of %,d requests at once of %,d segments, %d stage(s), %d workers; load %s%n", Runtime.version(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("orderly.scope", "auto"), o.rounds,
                o.warmup, o.requests, o.segments, o.stages, o.workers, LoadAverage.now());
        String[] names = {"wall", "peak used heap", "allocated"};
        String[] units = {"ms", "MiB", "MiB"};
        double[][][] figures = interleaved(o, builds, build -> build.manyRequests(o));
        for (int i = 0; i < n; i++) {
            StringBuilder line = new StringBuilder("engine " + i + " (" + o.engines.get(i) + "):");
            for (int f = 0; f < names.length; f++) {
                line.append(String.format(Locale.ROOT, " %s %.1f %s", names[f], median(figures[f][i]), units[f]));
            }
            System.out.println(line.append(" (medians)"));
        }
        for (int i = 1; i < n; i++) {
            StringBuilder line = new StringBuilder("engine " + i + " / engine 0, per round:");
            for (int f = 0; f < names.length; f++) {
                double[] ratio = new double[o.rounds];
                for (int r = 0; r < o.rounds; r++) {
                    ratio[r] = Comparison.ratio(figures[f][i][r], figures[f][0][r]);
                }
                line.append(String.format(Locale.ROOT, " %s %s", names[f], ratios(ratio)));
            }
            System.out.println(line.append(" (medians, ranges)"));
        }
        System.out.printf(Locale.ROOT, "load after: %s; %s%n", LoadAverage.now(), CoreToCore.now());
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int m = sorted.length;
        return m % 2 == 1 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElseThrow();
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElseThrow();
    }

    /** Loads the engine's and the benchmark's classes itself (the engine's from its directory), the rest from above. */
    private static final class ChildFirst extends URLClassLoader {

        private final ReentrantLock lock = new ReentrantLock();

        ChildFirst(String name, Path engineClasses) throws IOException {
            super(name, new URL[] {engineClasses.toUri().toURL(), benchClasses()}, EngineAB.class.getClassLoader());
        }

        private static URL benchClasses() throws IOException {
            try {
                return EngineAB.class.getProtectionDomain().getCodeSource().getLocation().toURI().toURL();
            } catch (java.net.URISyntaxException e) {
                throw new IOException("the benchmark's own class path entry is not a URI", e);
            }
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            for (String prefix : CHILD_FIRST) {
                if (name.startsWith(prefix)) {
                    // Job threads load engine classes as they first need them: one definition per name.
                    lock.lock();
                    try {
                        Class<?> loaded = findLoadedClass(name);
                        if (loaded == null) {
                            loaded = findClass(name);
                        }
                        if (resolve) {
                            resolveClass(loaded);
                        }
                        return loaded;
                    } finally {
                        lock.unlock();
                    }
                }
            }
            return super.loadClass(name, resolve);
        }
    }

    /** The median and range of the known per-round {@code ratios}, "n/a" for those of figures too small to measure. */
    static String ratios(double[] ratios) {
        double[] known = Comparison.known(ratios);
        if (known.length == 0) {
            return "n/a (no round measurable)";
        }
        String s = String.format(Locale.ROOT, "%.3f (%.3f-%.3f)", median(known), min(known), max(known));
        return known.length == ratios.length ? s : s + " over " + known.length + " of " + ratios.length + " rounds";
    }

    /** The command line, validated: each bad value is named. */
    record Options(int rounds, int warmup, long segments, int stages, int workers, double refusals,
            boolean virtualCaller, int requests, boolean recording, List<Path> engines) {

        static Options parse(String[] args) {
            int rounds = 16;
            int warmup = 4;
            long segments = 300_000;
            int stages = 1;
            int workers = 100;
            double refusals = 0;
            boolean virtualCaller = false;
            int requests = 1;
            boolean recording = false;
            List<Path> engines = new ArrayList<>();
            for (String arg : args) {
                if (!arg.startsWith("--")) {
                    Path dir = Path.of(arg);
                    if (!Files.isDirectory(dir.resolve("dev/orderly/engine"))) {
                        throw new IllegalArgumentException("'" + arg + "' is not an engine's classes directory (no"
                                + " dev/orderly/engine in it)");
                    }
                    engines.add(dir);
                    continue;
                }
                int eq = arg.indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException("expected --name=value, was '" + arg + "'");
                }
                String name = arg.substring(2, eq);
                String value = arg.substring(eq + 1);
                switch (name) {
                    case "rounds" -> rounds = (int) whole(name, value, 1, Integer.MAX_VALUE);
                    case "warmup" -> warmup = (int) whole(name, value, 0, Integer.MAX_VALUE);
                    case "segments" -> segments = whole(name, value, 1, Long.MAX_VALUE - 1);
                    // Engine.run refuses more than 65,536 stages, and a look-ahead (2 x workers) over 2^20 segments.
                    case "stages" -> stages = (int) whole(name, value, 1, 1 << 16);
                    case "workers" -> workers = (int) whole(name, value, 1, EngineCost.MAX_WORKERS);
                    case "requests" -> requests = (int) whole(name, value, 1, Integer.MAX_VALUE);
                    case "refusals" -> {
                        try {
                            refusals = Double.parseDouble(value);
                        } catch (NumberFormatException e) {
                            refusals = Double.NaN;
                        }
                        if (!(refusals >= 0 && refusals < 1)) {
                            throw new IllegalArgumentException("--refusals must be in [0, 1), was '" + value + "'");
                        }
                    }
                    case "virtual-caller" -> virtualCaller = bool(name, value);
                    case "recording" -> recording = bool(name, value);
                    default -> throw new IllegalArgumentException("unknown option --" + name);
                }
            }
            if (recording && requests > 1) {
                throw new IllegalArgumentException("--recording=true times one request; it does not go with"
                        + " --requests=" + requests);
            }
            if (refusals > 0 && requests > 1) {
                // Runs.manyRequests's tier2 refuses nothing: the rate would be dropped without a word.
                throw new IllegalArgumentException("--refusals=" + refusals + " times one request; it does not go with"
                        + " --requests=" + requests);
            }
            if (engines.size() < 2) {
                throw new IllegalArgumentException("name at least two engine classes directories, named "
                        + engines.size());
            }
            return new Options(rounds, warmup, segments, stages, workers, refusals, virtualCaller, requests,
                    recording, List.copyOf(engines));
        }

        private static boolean bool(String name, String value) {
            if (!value.equals("true") && !value.equals("false")) {
                throw new IllegalArgumentException("--" + name + " must be true or false, was '" + value + "'");
            }
            return Boolean.parseBoolean(value);
        }

        private static long whole(String name, String value, long min, long max) {
            long parsed;
            try {
                parsed = Long.parseLong(value.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--" + name + " must be a whole number, was '" + value + "'");
            }
            if (parsed < min || parsed > max) {
                throw new IllegalArgumentException("--" + name + " must be between " + min + " and " + max
                        + ", was " + parsed);
            }
            return parsed;
        }
    }
}
