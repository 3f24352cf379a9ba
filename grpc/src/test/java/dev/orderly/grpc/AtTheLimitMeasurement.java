package dev.orderly.grpc;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A measurement, not a check (run with {@code -Dorderly.measure=true}): a fleet sized exactly to its load, {@code
 * callers} dialing in a loop on as many slots, for a few seconds; how many dials were admitted, refused by a tier2, or
 * failed in the client as UNREACHABLE, with health checking off, and on with several {@code loadStatusDelay}s. A
 * caller turned away waits {@code orderly.refusedDelayMs} (default 100, the engine's {@code refusedDelay}) before it
 * dials again, so a lost admission costs what it costs a real request. docs/results/transport.md has the numbers.
 */
@EnabledIfSystemProperty(named = "orderly.measure", matches = "true")
class AtTheLimitMeasurement {

    @Test
    void fleetSizedToItsLoad() throws Exception {
        int instances = Integer.getInteger("orderly.instances", 4);
        int slots = Integer.getInteger("orderly.slots", 16);
        int callers = instances * slots;
        Duration length = Duration.ofSeconds(Integer.getInteger("orderly.seconds", 2));
        long refusedDelayMillis = Integer.getInteger("orderly.refusedDelayMs", 100);
        for (int round = 0; round < Integer.getInteger("orderly.rounds", 3); round++) {
            for (long delayMs : new long[] {-1, 0, 20, 50, 200}) { // -1: health checking off
                boolean health = delayMs >= 0;
                List<Tier2Server> fleet = new ArrayList<>();
                List<String> addresses = new ArrayList<>();
                for (int i = 0; i < instances; i++) {
                    Tier2Server s = Tier2Server.builder().maxConcurrentJobs(slots).drainGrace(Duration.ZERO)
                            .loadStatusDelay(Duration.ofMillis(Math.max(0, delayMs)))
                            .worker((job, work) -> Thread.sleep(1)).build().start();
                    fleet.add(s);
                    addresses.add("127.0.0.1:" + s.port());
                }
                try (GrpcTier2Client client = GrpcTier2Client.builder().addresses(addresses).healthChecking(health)
                        .build()) {
                    warmUp(client);
                    AtomicLong admitted = new AtomicLong();
                    AtomicLong refused = new AtomicLong();
                    AtomicLong unreachable = new AtomicLong();
                    long end = System.nanoTime() + length.toNanos();
                    List<Thread> threads = new ArrayList<>();
                    for (int c = 0; c < callers; c++) {
                        long id = c;
                        threads.add(Thread.ofVirtual().start(() -> {
                            for (int n = 0; System.nanoTime() < end; n++) {
                                try (Tier2Call call = client.dial(new Job("m", new JobKey(id * 1_000_000 + n, 0), 1))) {
                                    admitted.incrementAndGet();
                                    call.await();
                                } catch (Tier2Exception e) {
                                    (e.kind() == Tier2Exception.Kind.REFUSED ? refused : unreachable)
                                            .incrementAndGet();
                                    try {
                                        Thread.sleep(refusedDelayMillis); // as the engine's refusedDelay would
                                    } catch (InterruptedException stop) {
                                        Thread.currentThread().interrupt();
                                        return;
                                    }
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                    return;
                                }
                            }
                        }));
                    }
                    for (Thread t : threads) {
                        t.join();
                    }
                    System.out.printf("round %d, %-36s: %d callers on %d x %d slots, %d s: admitted"
                                    + " %d, refused %d, unreachable %d%n", round, health
                                    ? "health on, loadStatusDelay " + delayMs + " ms" : "health checking off", callers,
                            instances, slots, length.toSeconds(), admitted.get(), refused.get(), unreachable.get());
                } finally {
                    fleet.forEach(Tier2Server::close);
                }
            }
        }
    }

    private static void warmUp(GrpcTier2Client client) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            try (Tier2Call call = client.dial(new Job("w", new JobKey(i, 0), 1))) {
                call.await();
            } catch (Tier2Exception e) {
                // warming up
            }
        }
    }
}
