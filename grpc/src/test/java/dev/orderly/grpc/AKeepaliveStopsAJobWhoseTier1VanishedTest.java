package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.testing.net.TcpProxy;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A tier1 that vanishes without a reset (its host frozen, a link that drops every packet) must not leave its jobs
 * running on the tier2: the tier2 pings a connection it has heard nothing from and, when no answer comes, cancels the
 * calls on it, so their jobs are stopped as on a client cancel and their slots go to the fleet's other requests.
 *
 * <p>The bug: the tier2 only permitted the clients' pings and sent none, so a job whose tier1 froze ran to its end
 * (or for good, for a worker that waits on its client), holding its slot.
 */
@Timeout(120)
class AKeepaliveStopsAJobWhoseTier1VanishedTest {

    @Test
    void aFrozenTier1sJobIsStoppedAndItsSlotFreedWithinTheDefaultKeepalive() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        Tier2Server tier2 = Tier2Server.builder().maxConcurrentJobs(1).drainGrace(Duration.ZERO)
                .worker((job, work) -> {
                    running.countDown();
                    try {
                        release.await(100, SECONDS); // a long job: it ends only when stopped (or the test ends)
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                        throw e;
                    }
                }).build().start();
        TcpProxy link = TcpProxy.start(new InetSocketAddress("127.0.0.1", tier2.port()));
        // The frozen tier1 sends no ping of its own either: a client keepalive far longer than the test.
        GrpcTier2Client tier1 = GrpcTier2Client.builder().addresses(List.of(link.hostPort()))
                .keepAlive(Duration.ofHours(1), Duration.ofHours(1)).build();
        try (Tier2Call call = tier1.dial(new Job("frozen-tier1", new JobKey(0, 0), 1))) {
            assertTrue(running.await(20, SECONDS), "the job did not start");
            assertEquals(1, tier2.jobsHeld());
            long frozeAt = System.nanoTime();
            link.freeze(); // the tier1's host stops: its connection stays open, nothing moves either way

            // The default keepalive (10 s without a read, then 5 s for the answer) ends it in about 15 s.
            await().atMost(60, SECONDS).until(() -> tier2.jobsHeld() == 0);
            System.out.printf("the frozen tier1's job was stopped %d ms after the freeze%n",
                    Duration.ofNanos(System.nanoTime() - frozeAt).toMillis());
            assertTrue(interrupted.get(), "the job was not stopped: its worker was never interrupted");
            link.thaw();
        } finally {
            release.countDown();
            link.thaw();
            tier1.close();
            link.close();
            tier2.close();
        }
    }

    @Test
    void aFrozenTier1sDialLeavesTheWaitingRoom() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Tier2Server tier2 = Tier2Server.builder().maxConcurrentJobs(1).drainGrace(Duration.ZERO)
                .waitingRoom(4, Duration.ofSeconds(100))
                .keepAlive(Duration.ofMillis(500), Duration.ofMillis(500))
                .worker((job, work) -> release.await(100, SECONDS)) // holds the one slot until the test ends
                .build().start();
        TcpProxy link = TcpProxy.start(new InetSocketAddress("127.0.0.1", tier2.port()));
        GrpcTier2Client holder = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + tier2.port())).build();
        GrpcTier2Client frozen = GrpcTier2Client.builder().addresses(List.of(link.hostPort()))
                .admissionWait(Duration.ofSeconds(100)).keepAlive(Duration.ofHours(1), Duration.ofHours(1)).build();
        Thread dialer = null;
        try (Tier2Call held = holder.dial(new Job("holder", new JobKey(0, 0), 1))) {
            dialer = Thread.ofVirtual().start(() -> {
                try (Tier2Call never = frozen.dial(new Job("frozen-tier1", new JobKey(0, 0), 1))) {
                    // admitted only if the slot frees, which it does not while the test runs
                } catch (Exception ignored) {
                    // the test ends the dial by an interrupt
                }
            });
            await().atMost(20, SECONDS).until(() -> tier2.callsWaiting() == 1);
            link.freeze();
            // Its seat is given up when the pings go unanswered, not held for the 100 s it asked to wait.
            await().atMost(30, SECONDS).until(() -> tier2.callsWaiting() == 0);
            assertEquals(1, tier2.jobsHeld());
        } finally {
            release.countDown();
            if (dialer != null) {
                dialer.interrupt();
                dialer.join(Duration.ofSeconds(10));
            }
            link.thaw();
            frozen.close();
            holder.close();
            link.close();
            tier2.close();
        }
    }

    @Test
    void aLiveTier1AnswersThePingsAndItsLongJobCompletes() throws Exception {
        // Pings far more often than the job lasts: a live client answers each, so the job is never cut short.
        Tier2Server tier2 = Tier2Server.builder().maxConcurrentJobs(1).drainGrace(Duration.ZERO)
                .keepAlive(Duration.ofMillis(100), Duration.ofSeconds(5))
                .worker((job, work) -> Thread.sleep(2_000)) // the simulated work itself
                .build().start();
        GrpcTier2Client tier1 = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + tier2.port()))
                .keepAlive(Duration.ofHours(1), Duration.ofHours(1)).build();
        try (Tier2Call call = tier1.dial(new Job("live-tier1", new JobKey(0, 0), 1))) {
            call.await(); // throws unless the job completed
            assertEquals(1, tier2.jobsAdmitted());
        } finally {
            tier1.close();
            tier2.close();
        }
    }

    @Test
    void aKeepaliveThatIsNotPositiveIsRefusedByName() {
        Tier2Server.Builder b = Tier2Server.builder();
        assertEquals("keepAlive time must be > 0, was PT0S", assertThrows(IllegalArgumentException.class,
                () -> b.keepAlive(Duration.ZERO, Duration.ofSeconds(5))).getMessage());
        assertEquals("keepAlive timeout must be > 0, was PT-1S", assertThrows(IllegalArgumentException.class,
                () -> b.keepAlive(Duration.ofSeconds(10), Duration.ofSeconds(-1))).getMessage());
        assertEquals("keepAlive time", assertThrows(NullPointerException.class,
                () -> b.keepAlive(null, Duration.ofSeconds(5))).getMessage());
    }
}
