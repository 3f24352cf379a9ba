package dev.orderly.sim.cli;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.sim.tier2.Tier2Processes;
import java.io.PrintWriter;
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
 */
@Command(name = "bench", mixinStandardHelpOptions = true, version = "orderly fleet bench 0.1.0",
        sortOptions = false,
        description = "Measures the gRPC transport on real tier2 processes: dials/s against a full fleet (all"
                + " refused), and the latency of one admitted no-op job.")
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
        Path dir = Files.createTempDirectory("orderly-bench-");
        out.printf(Locale.ROOT, "orderly fleet bench: %d tier2 processes on 127.0.0.1, %d cores, %s%n", instances,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name") + " "
                        + Runtime.version());
        // A job of 1 h (no spread, real time): holds its slot for the whole benchmark.
        try (Tier2Processes full = Tier2Processes.start(instances, List.of("--max-concurrent=1",
                "--outputs=" + dir, "--job-duration=1h", "--job-spread=0", "--time-scale=1", "--timeout-rate=0",
                "--retryable-rate=0", "--missing-output-rate=0", "--drain-grace=0s"), dir, Duration.ofSeconds(60));
             GrpcTier2Client holder = GrpcTier2Client.builder().addresses(full.addresses()).healthChecking(false)
                     .build()) {
            List<Tier2Call> held = new ArrayList<>();
            for (int i = 0; held.size() < instances && i < 10_000; i++) {
                try {
                    held.add(holder.dial(new Job("holder", new JobKey(i, 0), 1)));
                } catch (Tier2Exception refused) {
                    // that instance is already held; round_robin tries the next one
                }
            }
            for (boolean health : new boolean[] {true, false}) {
                try (GrpcTier2Client client = GrpcTier2Client.builder().addresses(full.addresses())
                        .healthChecking(health).build()) {
                    refusals(client, health ? "health checking on " : "health checking off");
                }
            }
            held.forEach(Tier2Call::close);
        }
        try (Tier2Processes idle = Tier2Processes.start(1, List.of("--max-concurrent=4", "--outputs=" + dir,
                "--stages=1", "--job-duration=1ms", "--job-spread=0", "--time-scale=1000000", "--timeout-rate=0",
                "--retryable-rate=0", "--missing-output-rate=0"), dir, Duration.ofSeconds(60));
             GrpcTier2Client client = GrpcTier2Client.builder().addresses(idle.addresses()).build()) {
            noOpJobs(client);
        }
        return 0;
    }

    /** One bad value is one line naming its option, its range and the value. */
    private void check(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new ParameterException(spec.commandLine(), option + " must be between " + min + " and " + max
                    + ", was " + value);
        }
    }

    private void refusals(GrpcTier2Client client, String mode) throws InterruptedException {
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
        out.printf(Locale.ROOT, "full fleet, %s: %,.0f dials/s (%d threads, %.1f s; %s)%n", mode, total / elapsed,
                threads, elapsed, kinds.entrySet().stream().filter(e -> e.getValue().get() > 0)
                        .map(e -> e.getKey() + " " + e.getValue().get()).toList());
        out.flush();
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

    private void noOpJobs(GrpcTier2Client client) throws Exception {
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
        out.printf(Locale.ROOT, "one admitted no-op job, dial -> Admitted -> Completed, %d in a row: p50 %.0f us,"
                        + " p99 %.0f us, max %.0f us%n", jobs, nanos[jobs / 2] / 1e3,
                nanos[(int) Math.min(jobs - 1, Math.ceil(jobs * 0.99) - 1)] / 1e3, nanos[jobs - 1] / 1e3);
        out.flush();
    }
}
