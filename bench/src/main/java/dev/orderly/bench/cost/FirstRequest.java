package dev.orderly.bench.cost;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The first request of a new JVM: the time from {@code Orderly.engine(...)} to the end of a one-segment request,
 * then of a second such request, each in a JVM of its own started for it, {@code --jvms} times. With engine classes
 * directories named (as {@link EngineAB}'s), each build runs in turn in every round, on the class path in place of the
 * engine's own; with none, the engine on this class path. What it measures is what a short-lived JVM (a CLI, a job
 * runner, a test) pays for the engine's first use: class loading, static set-up, the first threads.
 *
 * <pre>
 * mvn -B -q -pl bench -am verify -DskipTests -Pfirst-request [-Dfirst.args="--jvms=8 before/classes after/classes"]
 * </pre>
 *
 * Exit code 0 when every child delivered both requests, 1 otherwise, 2 for a bad argument.
 */
public final class FirstRequest {

    private static final int CHILD_SECONDS = 120;

    private FirstRequest() {
    }

    /** The child: one engine, two requests of one instant segment; prints both times in milliseconds. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            long start = System.nanoTime();
            Engine engine = Orderly.engine(EngineConfig.defaults());
            long first = oneSegment(engine);
            long afterFirst = System.nanoTime();
            oneSegment(engine);
            long end = System.nanoTime();
            if (first != 1) {
                throw new IllegalStateException("the first request delivered " + first + " segments");
            }
            System.out.printf(Locale.ROOT, "first %.1f second %.1f%n", (afterFirst - start) / 1e6,
                    (end - afterFirst) / 1e6);
        }

        private static long oneSegment(Engine engine) throws Exception {
            InMemoryOutputStore outputs = new InMemoryOutputStore();
            RequestPlan plan = new RequestPlan(0, 1, 1, 1);
            Tier2Client tier2 = job -> () -> outputs.write(job.key().segment(), new byte[] {1});
            return engine.run(Request.of(plan, tier2, outputs, (segment, output) -> { })).segmentsDelivered();
        }
    }

    public static void main(String[] args) throws Exception {
        int jvms = 5;
        List<String> builds = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("--jvms=")) {
                try {
                    jvms = Integer.parseInt(arg.substring("--jvms=".length()));
                } catch (NumberFormatException e) {
                    jvms = 0;
                }
                if (jvms < 1) {
                    usage("--jvms must be a whole number of at least 1, was '" + arg.substring(7) + "'");
                }
            } else if (arg.startsWith("--")) {
                usage("unknown option " + arg);
            } else if (!Files.isDirectory(Path.of(arg, "dev", "orderly", "engine"))) {
                usage("'" + arg + "' is not an engine's classes directory (no dev/orderly/engine in it)");
            } else {
                builds.add(arg);
            }
        }
        List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> withoutEngine = classPath.stream().filter(entry -> !isEngine(entry)).toList();
        List<String> names = builds.isEmpty() ? List.of("this class path's engine") : builds;
        double[][] firsts = new double[names.size()][jvms];
        double[][] seconds = new double[names.size()][jvms];
        System.out.printf(Locale.ROOT, "JDK %s, %d CPU(s); %d JVM(s) per build; load %s%n", Runtime.version(),
                Runtime.getRuntime().availableProcessors(), jvms, LoadAverage.now());
        for (int round = 0; round < jvms; round++) {
            for (int b = 0; b < names.size(); b++) {
                List<String> path = builds.isEmpty() ? classPath : prepend(builds.get(b), withoutEngine);
                double[] times;
                try {
                    times = child(path);
                } catch (ChildFailed e) {
                    System.err.println("FirstRequest: " + e.getMessage());
                    System.exit(1);
                    return;
                }
                firsts[b][round] = times[0];
                seconds[b][round] = times[1];
                System.out.printf(Locale.ROOT, "  JVM %d, %s: first request %.1f ms, second %.1f ms%n", round + 1,
                        names.get(b), times[0], times[1]);
            }
        }
        for (int b = 0; b < names.size(); b++) {
            System.out.printf(Locale.ROOT, "%s: first request %.1f ms (%.1f-%.1f), second %.1f ms (medians, range)%n",
                    names.get(b), EngineAB.median(firsts[b]), Arrays.stream(firsts[b]).min().orElseThrow(),
                    Arrays.stream(firsts[b]).max().orElseThrow(), EngineAB.median(seconds[b]));
        }
        System.out.printf(Locale.ROOT, "load after: %s%n", LoadAverage.now());
    }

    private static boolean isEngine(String entry) {
        Path path = Path.of(entry);
        return Files.isDirectory(path.resolve("dev/orderly/engine"))
                || path.getFileName().toString().startsWith("orderly-engine-");
    }

    private static List<String> prepend(String first, List<String> rest) {
        List<String> path = new ArrayList<>(rest.size() + 1);
        path.add(first);
        path.addAll(rest);
        return path;
    }

    /** Runs a child JVM on {@code classPath}; its two times. */
    private static double[] child(List<String> classPath) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path output = Files.createTempFile("first-request", ".out");
        Process child = new ProcessBuilder(java, "-cp", String.join(File.pathSeparator, classPath),
                Child.class.getName()).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            if (!child.waitFor(CHILD_SECONDS, TimeUnit.SECONDS)) {
                throw new ChildFailed("a child JVM did not end within " + CHILD_SECONDS + " s");
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            String[] fields = text.strip().split("\\s+");
            if (child.exitValue() != 0 || fields.length != 4 || !fields[0].equals("first")) {
                throw new ChildFailed("a child JVM failed (exit " + child.exitValue() + "):\n" + text);
            }
            return new double[] {Double.parseDouble(fields[1]), Double.parseDouble(fields[3])};
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
            Files.deleteIfExists(output);
        }
    }

    /** A child JVM that did not deliver both requests; its output is in the message. */
    private static final class ChildFailed extends IllegalStateException {
        ChildFailed(String message) {
            super(message);
        }
    }

    private static void usage(String problem) {
        System.err.println("FirstRequest: " + problem);
        System.err.println("usage: FirstRequest [--jvms=N] [<engine classes dir>...]");
        System.exit(2);
    }
}
