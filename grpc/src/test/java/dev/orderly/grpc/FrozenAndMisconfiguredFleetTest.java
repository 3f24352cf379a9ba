package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.net.TcpProxy;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The transport's defects found by attacking real servers on loopback (a frozen instance through a {@link TcpProxy},
 * oversized work, a bad target, a worker deaf to interrupts), each pinned by a test named after it.
 */
@Timeout(120)
class FrozenAndMisconfiguredFleetTest {

    private static final Engine ENGINE = Orderly.engine(EngineConfig.builder()
            .refusedDelay(Duration.ofMillis(20)).failureDelay(Duration.ofMillis(20)).build());

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final InMemoryOutputStore outputs = new InMemoryOutputStore();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void tearDown() throws Exception {
        release.countDown();
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private <T extends AutoCloseable> T closeLater(T resource) {
        toClose.add(resource);
        return resource;
    }

    /** A loopback tier2 whose jobs take {@code jobMillis} and write their segment's output. */
    private Tier2Server tier2(int slots, long jobMillis) throws Exception {
        return closeLater(Tier2Server.builder().maxConcurrentJobs(slots).drainGrace(Duration.ZERO)
                .worker((job, work) -> {
                    Thread.sleep(jobMillis); // the simulated work itself
                    outputs.write(job.key().segment(), Transport.output(job.key().segment()));
                }).build().start());
    }

    private static String loopback(int port) {
        return "127.0.0.1:" + port;
    }

    private RequestResult runRequest(GrpcTier2Client client, long segments, int workers) throws Exception {
        AtomicLong next = new AtomicLong();
        RequestResult result = ENGINE.run(Request.of(new RequestPlan(0, segments, 1, workers), client, outputs,
                (segment, output) -> {
                    assertEquals(next.getAndIncrement(), segment, "out of order");
                    assertArrayEquals(Transport.output(segment), output);
                }));
        assertEquals(segments, next.get());
        return result;
    }

    /** Dials once on each instance of a two-instance client, so both connections are up and watched. */
    private static void warmUp(GrpcTier2Client client, Tier2Server a, Tier2Server b) throws Exception {
        await().atMost(20, SECONDS).until(() -> {
            try (Tier2Call call = client.dial(new Job("warm-up", new JobKey(0, 0), 1))) {
                call.await();
            } catch (Tier2Exception e) {
                // not up yet
            }
            return a.jobsAdmitted() > 0 && b.jobsAdmitted() > 0;
        });
    }

    @Test
    void oneFrozenTier2NeverStallsTheRequest() throws Exception {
        Tier2Server healthy = tier2(2, 300);
        Tier2Server freezing = tier2(2, 300);
        TcpProxy link = closeLater(TcpProxy.start(new InetSocketAddress("127.0.0.1", freezing.port())));
        toClose.add(link::thaw); // thawed before it closes, so the servers drain at once

        // The healthy instance alone: the yardstick.
        long aloneNanos;
        try (GrpcTier2Client alone = GrpcTier2Client.builder().addresses(List.of(loopback(healthy.port())))
                .build()) {
            long start = System.nanoTime();
            runRequest(alone, 20, 4);
            aloneNanos = System.nanoTime() - start;
        }

        GrpcTier2Client fleet = closeLater(GrpcTier2Client.builder()
                .addresses(List.of(loopback(healthy.port()), link.hostPort()))
                .admissionTimeout(Duration.ofMillis(500)).build());
        warmUp(fleet, healthy, freezing);
        link.freeze(); // a SIGSTOP'd instance: connections open, health last said SERVING, nothing answers

        FutureTask<RequestResult> request = new FutureTask<>(() -> runRequest(fleet, 20, 4));
        long start = System.nanoTime();
        Thread runner = Thread.ofVirtual().start(request);
        long boundNanos = 2 * aloneNanos;
        try {
            RequestResult result = request.get(boundNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
            System.out.printf("one frozen of two: 20 segments in %d ms; the healthy instance alone: %d ms%n",
                    Duration.ofNanos(System.nanoTime() - start).toMillis(), Duration.ofNanos(aloneNanos).toMillis());
            assertEquals(20, result.segmentsDelivered());
            assertEquals(0, result.executionTimeouts());
        } catch (TimeoutException e) {
            throw new AssertionError("with one of two instances frozen the request did not finish within twice the "
                    + Duration.ofNanos(aloneNanos).toMillis() + " ms the healthy instance needs alone", e);
        } finally {
            runner.interrupt();
            runner.join(Duration.ofSeconds(20));
        }
    }

    @Test
    void dialsNeverAdmittedDoNotUseUpTheExecutionTimeoutBudget() throws Exception {
        // Instant jobs: an admitted job must end well inside the call timeout even on a loaded machine (jobs of 50 ms
        // under a 400 ms timeout timed out at a load of 12 on 2 cores), so only a dial never admitted can reach it.
        Tier2Server healthy = tier2(2, 0);
        Tier2Server freezing = tier2(2, 50);
        TcpProxy link = closeLater(TcpProxy.start(new InetSocketAddress("127.0.0.1", freezing.port())));
        toClose.add(link::thaw);

        // One dial, frozen instance only: its deadline passes before Admitted, so nothing ran.
        GrpcTier2Client frozenOnly = closeLater(GrpcTier2Client.builder().addresses(List.of(link.hostPort()))
                .callTimeout(Duration.ofMillis(300)).build());
        await().atMost(20, SECONDS).until(() -> { // connected, whatever the machine's load
            try (Tier2Call call = frozenOnly.dial(new Job("warm-up", new JobKey(0, 0), 1))) {
                call.await();
                return true;
            } catch (Tier2Exception e) {
                return false;
            }
        });
        link.freeze();
        Tier2Exception e = assertThrows(Tier2Exception.class,
                () -> frozenOnly.dial(new Job("r", new JobKey(34, 0), 1)).close());
        assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
        link.thaw();

        // A whole request with a short callTimeout and one of two instances frozen: never an execution timeout.
        GrpcTier2Client fleet = closeLater(GrpcTier2Client.builder()
                .addresses(List.of(loopback(healthy.port()), link.hostPort()))
                .callTimeout(Duration.ofSeconds(1)).build());
        warmUp(fleet, healthy, freezing);
        link.freeze();
        RequestResult result = runRequest(fleet, 20, 4);
        assertEquals(0, result.executionTimeouts());
    }

    @Test
    void workOverTheMessageLimitIsFatalBeforeAnyDialNotRefusedForever() throws Exception {
        Tier2Server server = tier2(2, 0);
        byte[] big = new byte[5 * 1024 * 1024];
        GrpcTier2Client client = closeLater(GrpcTier2Client.builder().addresses(List.of(loopback(server.port())))
                .work(job -> big).build());
        Tier2Exception e = assertThrows(Tier2Exception.class,
                () -> client.dial(new Job("r", new JobKey(7, 1), 1)).close());
        assertEquals(Kind.FATAL, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains("segment 7 stage 1") && e.getMessage().contains("over the limit of "
                + 4 * 1024 * 1024), e.getMessage());
        assertEquals(0, server.jobsAdmitted() + server.callsRefused());
    }

    @Test
    void workOverTheServersSmallerLimitIsFatalNotRefused() throws Exception {
        Tier2Server server = closeLater(Tier2Server.builder().maxConcurrentJobs(2).maxMessageSize(1024)
                .worker((job, work) -> { }).build().start());
        GrpcTier2Client client = closeLater(GrpcTier2Client.builder().addresses(List.of(loopback(server.port())))
                .work(job -> new byte[4096]).build());
        Tier2Exception e = assertThrows(Tier2Exception.class,
                () -> client.dial(new Job("r", new JobKey(0, 0), 1)).close());
        assertEquals(Kind.FATAL, e.kind(), e.getMessage());
    }

    @Test
    void bothLimitsRaisedLetLargeWorkThrough() throws Exception {
        AtomicLong seen = new AtomicLong();
        Tier2Server server = closeLater(Tier2Server.builder().maxConcurrentJobs(2).maxMessageSize(8 << 20)
                .worker((job, work) -> seen.set(work.length)).build().start());
        GrpcTier2Client client = closeLater(GrpcTier2Client.builder().addresses(List.of(loopback(server.port())))
                .maxMessageSize(8 << 20).work(job -> new byte[5 << 20]).build());
        try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), 1))) {
            call.await();
        }
        assertEquals(5 << 20, seen.get());
    }

    @Test
    void targetWithAnOutOfRangePortFailsAtBuildInsteadOfBlockingEveryDial() {
        for (String target : List.of("127.0.0.1:99999", "dns:///127.0.0.1:99999", "localhost:0", "127.0.0.1:http")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GrpcTier2Client.builder().target(target).build().close(), target);
            assertTrue(e.getMessage().contains(target), e.getMessage());
        }
    }

    @Test
    void executionLimitEndsTheCallEvenWhenTheWorkerIgnoresTheInterrupt() throws Exception {
        Tier2Server server = closeLater(Tier2Server.builder().maxConcurrentJobs(1)
                .executionTimeout(Duration.ofMillis(300)).drainGrace(Duration.ZERO)
                .worker((job, work) -> {
                    while (true) {
                        try {
                            release.await();
                            return;
                        } catch (InterruptedException deaf) {
                            // a worker that ignores the interrupt and keeps going
                        }
                    }
                }).build().start());
        GrpcTier2Client client = closeLater(GrpcTier2Client.builder().addresses(List.of(loopback(server.port())))
                .build());
        Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), 1));
        FutureTask<Kind> awaited = new FutureTask<>(() -> {
            try {
                call.await();
                return null;
            } catch (Tier2Exception e) {
                return e.kind();
            }
        });
        Thread.ofVirtual().start(awaited);
        try {
            assertEquals(Kind.EXECUTION_TIMEOUT, awaited.get(10, SECONDS),
                    "a 300 ms execution limit did not end the call");
        } catch (TimeoutException e) {
            throw new AssertionError("a 300 ms execution limit had not ended the call after 10 s", e);
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        } finally {
            call.close();
        }
        assertEquals(1, server.jobsHeld(), "the slot must stay held while the worker still runs");
        release.countDown();
        await().atMost(10, SECONDS).until(() -> server.jobsHeld() == 0);
    }
}
