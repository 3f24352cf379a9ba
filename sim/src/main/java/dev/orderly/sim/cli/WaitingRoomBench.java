package dev.orderly.sim.cli;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.sim.tier2.FleetSecurity;
import dev.orderly.sim.tier2.Tier2Processes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The part of {@code orderly fleet bench} that compares a tier2 that refuses at once (today's) with one that has a
 * waiting room, on real processes, in the same run:
 * <ol>
 *   <li><b>Hand-off</b>: one instance of one slot, taken by a job of {@link #HOLD}; a second dial waits for it
 *       (with the room: in the room; without: redialing every {@link #REFUSED_DELAY}, as the engine does, starting
 *       at a random moment). The time from the holder's {@code Completed} to the waiter's {@code Admitted}, both
 *       seen on this side of one connection (the two messages travel the same way, so the network's share cancels
 *       out), is the time from the slot freeing to the next admission.
 *   <li><b>Dials on a full fleet</b>: every slot held by a job that never ends; {@code threads} dialers behave as the
 *       engine's jobs do: dial, and after a refusal dial again after the refused delay. With the room each dial
 *       waits up to the room's wait before it is refused.
 * </ol>
 */
final class WaitingRoomBench {

    /** The engine's default refused delay: how often a refused job dials again. */
    static final Duration REFUSED_DELAY = Duration.ofMillis(100);

    /** How long the holder's job of a hand-off runs: longer than the waiter's random start. */
    static final Duration HOLD = Duration.ofMillis(250);

    private final PrintWriter out;
    private final int instances;
    private final int threads;
    private final Duration window;
    private final Duration roomWait;
    private final int rounds;

    WaitingRoomBench(PrintWriter out, int instances, int threads, Duration window, Duration roomWait, int rounds) {
        this.out = out;
        this.instances = instances;
        this.threads = threads;
        this.window = window;
        this.roomWait = roomWait;
        this.rounds = rounds;
    }

    /** What one kind of tier2 measured. */
    record Measured(String name, double handOffP50Millis, double handOffP99Millis, double dialsPerSecond) {
    }

    /** Measures today's tier2, then one with a room, and prints both side by side. */
    void run(Path dir) throws Exception {
        Measured refusing = measure("refuse at once", dir, false);
        Measured room = measure("waiting room", dir, true);
        out.println();
        out.printf(Locale.ROOT, "%-52s %14s %14s %9s%n", "waiting room, measured in this run", refusing.name(),
                room.name(), "ratio");
        row("slot freed -> next admission, p50 (ms)", refusing.handOffP50Millis(), room.handOffP50Millis());
        row("slot freed -> next admission, p99 (ms)", refusing.handOffP99Millis(), room.handOffP99Millis());
        row("dials/s on a full fleet, engine-paced", refusing.dialsPerSecond(), room.dialsPerSecond());
        out.flush();
    }

    private void row(String what, double a, double b) {
        out.printf(Locale.ROOT, "%-52s %14.3f %14.3f %8.1fx%n", what, a, b, b == 0 ? 0 : a / b);
    }

    /**
     * The tier2 processes' waiting room: a seat for every dialing thread, and the wait as given, which the client asks
     * for too (whole milliseconds cut a {@code --room-wait=1.5ms} to 1 ms at the tier2, against 2 ms at the client).
     */
    static List<String> roomArgs(int threads, Duration roomWait) {
        return List.of("--room=" + Math.max(16, threads), "--admission-wait=" + DurationConverter.format(roomWait));
    }

    private Measured measure(String name, Path dir, boolean room) throws Exception {
        FleetSecurity plain = FleetSecurity.plaintext();
        List<String> args = new ArrayList<>(List.of("--max-concurrent=1", "--outputs=" + dir, "--stages=1",
                "--job-spread=0", "--time-scale=1", "--timeout-rate=0", "--retryable-rate=0",
                "--missing-output-rate=0", "--drain-grace=0s"));
        if (room) {
            args.addAll(roomArgs(threads, roomWait));
        }
        args.addAll(plain.tier2Args());
        List<String> holdArgs = new ArrayList<>(args);
        holdArgs.add("--job-duration=" + HOLD.toMillis() + "ms");
        args.add("--job-duration=1h"); // a full fleet: its jobs never end while measured
        Duration wait = room ? roomWait : Duration.ZERO;
        double[] handOff;
        try (Tier2Processes one = Tier2Processes.start(1, holdArgs, dir, Duration.ofSeconds(60));
             GrpcTier2Client client = plain.client(one.addresses()).healthChecking(false).admissionWait(wait)
                     .build()) {
            handOff = handOffs(client, name);
        }
        try (Tier2Processes full = Tier2Processes.start(instances, args, dir, Duration.ofSeconds(60));
             GrpcTier2Client holder = plain.client(full.addresses()).healthChecking(false).build();
             GrpcTier2Client client = plain.client(full.addresses()).healthChecking(false).admissionWait(wait)
                     .build()) {
            List<Tier2Call> held = holdEverySlot(holder, instances);
            double rate = pacedDials(client, name);
            held.forEach(Tier2Call::close);
            return new Measured(name, handOff[0], handOff[1], rate);
        }
    }

    /**
     * Takes the one slot of each of {@code instances} processes with a job that does not end (their jobs run 1 h),
     * dialing through {@code holder}'s round_robin until each instance holds one.
     */
    static List<Tier2Call> holdEverySlot(GrpcTier2Client holder, int instances) throws InterruptedException {
        List<Tier2Call> held = new ArrayList<>();
        for (int i = 0; held.size() < instances && i < 10_000; i++) {
            try {
                held.add(holder.dial(new Job("holder", new JobKey(i, 0), 1)));
            } catch (Tier2Exception refused) {
                // that instance is already held; round_robin tries the next one
            }
        }
        return held;
    }

    /** p50 and p99, in milliseconds, of the time from the slot freeing to the waiter's admission. */
    private double[] handOffs(GrpcTier2Client client, String name) throws Exception {
        long[] nanos = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            Tier2Call holder = dialUntilAdmitted(client, new Job("holder", new JobKey(r, 0), 1));
            long[] admittedAt = new long[1];
            Job waiting = new Job("waiter", new JobKey(r, 0), 1);
            // starts at a random moment of the refused delay, well before the holder's job ends
            long startIn = ThreadLocalRandom.current().nextLong(REFUSED_DELAY.toNanos());
            Thread waiter = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(Duration.ofNanos(startIn));
                    try (Tier2Call call = dialPaced(client, waiting)) {
                        admittedAt[0] = System.nanoTime();
                        call.await();
                    }
                } catch (InterruptedException | Tier2Exception e) {
                    Thread.currentThread().interrupt();
                }
            });
            long freed;
            try (holder) {
                holder.await();
                freed = System.nanoTime();
            }
            waiter.join(Duration.ofSeconds(30));
            if (waiter.isAlive() || admittedAt[0] == 0) {
                waiter.interrupt();
                throw new IllegalStateException("the waiter was not admitted within 30 s of the slot freeing");
            }
            nanos[r] = admittedAt[0] - freed;
        }
        Arrays.sort(nanos);
        double p50 = nanos[rounds / 2] / 1e6;
        double p99 = nanos[(int) Math.min(rounds - 1, Math.ceil(rounds * 0.99) - 1)] / 1e6;
        out.printf(Locale.ROOT, "%s: slot freed -> next admission, %d rounds: min %.3f ms, p50 %.3f ms, p99 %.3f ms,"
                + " max %.3f ms%n", name, rounds, nanos[0] / 1e6, p50, p99, nanos[rounds - 1] / 1e6);
        out.flush();
        return new double[] {p50, p99};
    }

    /** Dials until admitted, again after {@link #REFUSED_DELAY} after each refusal: a job of the engine. */
    private static Tier2Call dialPaced(GrpcTier2Client client, Job job) throws InterruptedException {
        while (true) {
            try {
                return client.dial(job);
            } catch (Tier2Exception e) {
                Thread.sleep(REFUSED_DELAY);
            }
        }
    }

    /** Dials until admitted, at once again after a refusal (the slot a moment ago given back is not free yet). */
    private static Tier2Call dialUntilAdmitted(GrpcTier2Client client, Job job) throws InterruptedException {
        for (int i = 0; ; i++) {
            try {
                return client.dial(job);
            } catch (Tier2Exception e) {
                if (i > 10_000) {
                    throw new IllegalStateException("the one slot never freed: " + e.getMessage(), e);
                }
                Thread.sleep(1);
            }
        }
    }

    /** Dials per second of {@code threads} engine-paced dialers against the full fleet, over the window. */
    private double pacedDials(GrpcTier2Client client, String name) throws InterruptedException {
        AtomicLong dials = new AtomicLong();
        long start = System.nanoTime();
        long end = start + window.toNanos();
        List<Thread> dialers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            dialers.add(Thread.ofVirtual().start(() -> {
                for (long i = 0; System.nanoTime() < end; i++) {
                    dials.incrementAndGet();
                    try (Tier2Call call = client.dial(new Job("bench-" + id, new JobKey(i, 0), 1))) {
                        throw new IllegalStateException("a full fleet admitted a job: " + call);
                    } catch (Tier2Exception refused) {
                        try {
                            Thread.sleep(REFUSED_DELAY);
                        } catch (InterruptedException e) {
                            return;
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }));
        }
        for (Thread d : dialers) {
            d.join();
        }
        // dials started within the window, over the window: a dial that waits past its end is not held against it
        double seconds = window.toNanos() / 1e9;
        double rate = dials.get() / seconds;
        out.printf(Locale.ROOT, "%s: %d engine-paced dialers on a full fleet of %d: %d dials in %.1f s, %.2f"
                + " dials/s%n", name, threads, instances, dials.get(), seconds, rate);
        out.flush();
        return rate;
    }
}
