package dev.orderly.sim.cli;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.sim.tier2.ChildProcesses;
import dev.orderly.sim.tier2.FleetSecurity;
import dev.orderly.sim.tier2.Tier2Processes;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code orderly fleet bench}: the cost of the gRPC transport on real tier2 processes on 127.0.0.1.
 * <ol>
 *   <li>Refusals: every slot of the fleet held by a job that never ends, then {@code --threads} threads dial for
 *       {@code --seconds}; every dial is turned away. Measured with health checking (the client learns the fleet is
 *       NOT_SERVING and fails the dial itself) and without it (each dial reaches a tier2, which answers
 *       {@code RESOURCE_EXHAUSTED}).
 *   <li>One admitted no-op job, dial → {@code Admitted} → {@code Completed}, one at a time: p50 and p99.
 * </ol>
 * Both are measured twice in one run, over TLS with a bearer token (what {@code ./orderly fleet} uses) and over
 * plaintext, and printed side by side: the cost of securing the transport. Then, in plaintext, a tier2 that refuses
 * at once beside one with a waiting room ({@link WaitingRoomBench}): the time from a slot freeing to the next
 * admission, and the dials per second of engine-paced dialers on a full fleet.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        sortOptions = false,
        description = "Measures the gRPC transport on real tier2 processes: dials/s against a full fleet (all"
                + " refused), the latency of one admitted no-op job, and a tier2 that refuses at once beside one"
                + " with a waiting room (slot freed -> next admission, dials/s of engine-paced dialers).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every measurement was made and printed", "1:a tier2 would not start or a measurement"
                + " failed", "2:bad option or value"})
final class FleetBenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--instances", paramLabel = "N", defaultValue = "2",
            description = "Tier2 processes (default: ${DEFAULT-VALUE}).")
    private int instances;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "8",
            description = "Threads dialing the full fleet at once (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--seconds", paramLabel = "N", defaultValue = "5",
            description = "Seconds of dialing the full fleet, per mode (default: ${DEFAULT-VALUE}).")
    private int seconds;

    @Option(names = "--jobs", paramLabel = "N", defaultValue = "2000",
            description = "No-op jobs timed, after as many untimed ones (default: ${DEFAULT-VALUE}).")
    private int jobs;

    @Option(names = "--room-wait", paramLabel = "DURATION", defaultValue = "5s",
            converter = DurationConverter.class,
            description = "The waiting room's wait, for the room's measurements: the tier2's --admission-wait and"
                    + " the client's admissionWait (default: ${DEFAULT-VALUE}).")
    private Duration roomWait;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "50",
            description = "Slots freed and handed over, per kind of tier2 (default: ${DEFAULT-VALUE}).")
    private int rounds;

    private final PrintWriter out;

    FleetBenchCommand(PrintWriter out) {
        this.out = out;
    }

    @Override
    public Integer call() throws Exception {
        Tier2ProcessBudget.ofThisMachine().check(spec.commandLine(), "--instances", instances, 64);
        check("--threads", threads, 1, 1024);
        check("--seconds", seconds, 1, 600);
        check("--jobs", jobs, 1, 10_000_000);
        check("--rounds", rounds, 1, 100_000);
        if (roomWait.toMillis() < 1 || roomWait.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new ParameterException(spec.commandLine(), "--room-wait must be between 1ms and 10m, was "
                    + DurationConverter.format(roomWait));
        }
        Path dir = Files.createTempDirectory("orderly-bench-");
        out.printf(Locale.ROOT, "orderly fleet bench: %d tier2 processes on 127.0.0.1, %d cores, %s%n", instances,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name") + " "
                        + Runtime.version());
        // Ctrl-C: the children are stopped (their gate's own hook does it too) before their directory, with the TLS
        // key in it, is deleted.
        Thread cleanUp = Thread.ofPlatform().unstarted(() -> {
            ChildProcesses.ofThisJvm().stopAll();
            try {
                deleteTree(dir);
            } catch (IOException | UncheckedIOException e) {
                // the JVM is ending: a file the OS would not let go stays in the temporary directory
            }
        });
        Runtime.getRuntime().addShutdownHook(cleanUp);
        try {
            List<Measured> measured = new ArrayList<>();
            for (FleetSecurity security : List.of(FleetSecurity.tls(dir.resolve("tls")), FleetSecurity.plaintext())) {
                measured.add(measure(security, dir));
            }
            printSideBySide(measured);
            out.println();
            new WaitingRoomBench(out, instances, threads, Duration.ofSeconds(2L * seconds), roomWait, rounds)
                    .run(dir);
        } finally {
            deleteTree(dir);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanUp);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or ran
            }
        }
        return 0;
    }

    /** What one transport set-up cost: refused dials/s with health checking on and off, a no-op job's latency. */
    private record Measured(String name, double healthOn, double healthOff, double p50Micros, double p99Micros) {
    }

    private Measured measure(FleetSecurity security, Path dir) throws Exception {
        String name = security.describe();
        double on;
        double off;
        // A job of 1 h (no spread, real time): holds its slot for the whole benchmark.
        List<String> fullArgs = new ArrayList<>(List.of("--max-concurrent=1", "--outputs=" + dir,
                "--job-duration=1h", "--job-spread=0", "--time-scale=1", "--timeout-rate=0", "--retryable-rate=0",
                "--missing-output-rate=0", "--drain-grace=0s"));
        fullArgs.addAll(security.tier2Args());
        try (Tier2Processes full = Tier2Processes.start(instances, fullArgs, dir, Duration.ofSeconds(60));
             GrpcTier2Client holder = security.client(full.addresses()).healthChecking(false).build()) {
            List<Tier2Call> held = WaitingRoomBench.holdEverySlot(holder, instances);
            try (GrpcTier2Client client = security.client(full.addresses()).healthChecking(true).build()) {
                on = refusals(client, name + ", full fleet, health checking on ");
            }
            try (GrpcTier2Client client = security.client(full.addresses()).healthChecking(false).build()) {
                off = refusals(client, name + ", full fleet, health checking off");
            }
            held.forEach(Tier2Call::close);
        }
        List<String> idleArgs = new ArrayList<>(List.of("--max-concurrent=4", "--outputs=" + dir, "--stages=1",
                "--job-duration=1ms", "--job-spread=0", "--time-scale=1000000", "--timeout-rate=0",
                "--retryable-rate=0", "--missing-output-rate=0"));
        idleArgs.addAll(security.tier2Args());
        try (Tier2Processes idle = Tier2Processes.start(1, idleArgs, dir, Duration.ofSeconds(60));
             GrpcTier2Client client = security.client(idle.addresses()).build()) {
            double[] latency = noOpJobs(client, name);
            return new Measured(name, on, off, latency[0], latency[1]);
        }
    }

    private void printSideBySide(List<Measured> m) {
        Measured a = m.get(0);
        Measured b = m.get(1);
        out.println();
        out.printf(Locale.ROOT, "%-48s %14s %14s %9s%n", "measured in this run", a.name(), b.name(), "ratio");
        row("refused dials/s, full fleet, health checking on", a.healthOn(), b.healthOn(), "%,14.0f");
        row("refused dials/s, full fleet, health checking off", a.healthOff(), b.healthOff(), "%,14.0f");
        row("one admitted no-op job, p50 (us)", a.p50Micros(), b.p50Micros(), "%14.0f");
        row("one admitted no-op job, p99 (us)", a.p99Micros(), b.p99Micros(), "%14.0f");
        out.flush();
    }

    private void row(String what, double a, double b, String format) {
        out.printf(Locale.ROOT, "%-48s " + format + " " + format + " %8.2fx%n", what, a, b, b == 0 ? 0 : a / b);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** One bad value is one line naming its option, its range and the value. */
    private void check(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new ParameterException(spec.commandLine(), option + " must be between " + min + " and " + max
                    + ", was " + value);
        }
    }

    private double refusals(GrpcTier2Client client, String mode) throws InterruptedException {
        long warmUpEnd = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        dialUntil(client, warmUpEnd, new EnumMap<>(Tier2Exception.Kind.class)); // warms up, not reported
        Map<Tier2Exception.Kind, AtomicLong> kinds = new EnumMap<>(Tier2Exception.Kind.class);
        for (Tier2Exception.Kind k : Tier2Exception.Kind.values()) {
            kinds.put(k, new AtomicLong());
        }
        long start = System.nanoTime();
        long end = start + Duration.ofSeconds(seconds).toNanos();
        List<Thread> dialers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            dialers.add(Thread.ofVirtual().start(() -> dialUntil(client, end, kinds)));
        }
        for (Thread d : dialers) {
            d.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        long total = kinds.values().stream().mapToLong(AtomicLong::get).sum();
        out.printf(Locale.ROOT, "%s: %,.0f dials/s (%d threads, %.1f s; %s)%n", mode, total / elapsed,
                threads, elapsed, kinds.entrySet().stream().filter(e -> e.getValue().get() > 0)
                        .map(e -> e.getKey() + " " + e.getValue().get()).toList());
        out.flush();
        return total / elapsed;
    }

    private static void dialUntil(GrpcTier2Client client, long end, Map<Tier2Exception.Kind, AtomicLong> kinds) {
        long i = 0;
        while (System.nanoTime() < end) {
            try (Tier2Call call = client.dial(new Job("bench", new JobKey(i++, 0), 1))) {
                throw new IllegalStateException("a full fleet admitted a job: " + call);
            } catch (Tier2Exception e) {
                AtomicLong n = kinds.get(e.kind());
                if (n != null) {
                    n.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** p50 and p99 in microseconds. */
    private double[] noOpJobs(GrpcTier2Client client, String name) throws Exception {
        long[] nanos = new long[jobs];
        for (int round = 0; round < 2; round++) { // the first round warms up and is not reported
            for (int i = 0; i < jobs; i++) {
                long t0 = System.nanoTime();
                try (Tier2Call call = client.dial(new Job("noop", new JobKey(i, 0), 1))) {
                    call.await();
                }
                nanos[i] = System.nanoTime() - t0;
            }
        }
        Arrays.sort(nanos);
        double p50 = nanos[jobs / 2] / 1e3;
        double p99 = nanos[(int) Math.min(jobs - 1, Math.ceil(jobs * 0.99) - 1)] / 1e3;
        out.printf(Locale.ROOT, "%s, one admitted no-op job, dial -> Admitted -> Completed, %d in a row: p50 %.0f us,"
                + " p99 %.0f us, max %.0f us%n", name, jobs, p50, p99, nanos[jobs - 1] / 1e3);
        out.flush();
        return new double[] {p50, p99};
    }
}
