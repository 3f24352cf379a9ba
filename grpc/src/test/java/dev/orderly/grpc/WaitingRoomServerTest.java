package dev.orderly.grpc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The waiting room over gRPC, on real servers on 127.0.0.1: a freed slot goes to a waiting dial without a second dial,
 * in the room's order; waits end, full rooms displace, cancelled waiters leave; the load status; old clients and old
 * servers.
 */
@Timeout(60)
class WaitingRoomServerTest {

    private final List<AutoCloseable> toClose = new ArrayList<>();
    /** Jobs in the order the server started them (by request id and segment). */
    private final List<String> started = new CopyOnWriteArrayList<>();
    private final Map<String, CountDownLatch> finish = new ConcurrentHashMap<>();
    private final CountDownLatch finishAll = new CountDownLatch(1);

    @AfterEach
    void tearDown() throws Exception {
        finishAll.countDown();
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private static String name(Job job) {
        return job.requestId() + job.key().segment();
    }

    /** Records the job and runs until the test finishes it ({@link #finish(String)}) or the test ends. */
    private final JobWorker held = (job, work) -> {
        String n = name(job);
        CountDownLatch mine = finish.computeIfAbsent(n, k -> new CountDownLatch(1));
        started.add(n);
        while (!mine.await(10, TimeUnit.MILLISECONDS)) {
            if (finishAll.getCount() == 0) {
                return;
            }
        }
    };

    private void finish(String job) {
        finish.computeIfAbsent(job, k -> new CountDownLatch(1)).countDown();
    }

    private Tier2Server server(Tier2Server.Builder b) throws Exception {
        Tier2Server s = b.worker(held).drainGrace(Duration.ZERO).build().start();
        toClose.add(s);
        return s;
    }

    private GrpcTier2Client client(Tier2Server s, Duration admissionWait) {
        GrpcTier2Client c = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + s.port()))
                .healthChecking(false).admissionWait(admissionWait).build();
        toClose.add(c);
        return c;
    }

    /** A job of request (tenant) {@code tenant} whose client reads {@code segment - rank}. */
    private static Job job(String tenant, long segment, long rank) {
        return new Job(tenant, new JobKey(segment, 0), 1, segment - rank);
    }

    /** A dial on its own thread; its result (the call, or what was thrown) once it returns. */
    private static final class Dial {
        final AtomicReference<Object> result = new AtomicReference<>();
        final Thread thread;

        Dial(GrpcTier2Client client, Job job) {
            thread = Thread.ofVirtual().start(() -> {
                try {
                    result.set(client.dial(job));
                } catch (Tier2Exception | InterruptedException | RuntimeException e) {
                    result.set(e);
                }
            });
        }

        Object awaitResult() {
            await().atMost(20, SECONDS).until(() -> result.get() != null);
            return result.get();
        }

        Tier2Call admitted() {
            Object r = awaitResult();
            assertTrue(r instanceof Tier2Call, "not admitted: " + r);
            return (Tier2Call) r;
        }

        Tier2Exception refused() {
            Object r = awaitResult();
            assertTrue(r instanceof Tier2Exception, "not refused: " + r);
            return (Tier2Exception) r;
        }
    }

    /** Fills the one slot of {@code s} with job h0 (tenant "h"). */
    private Tier2Call hold(GrpcTier2Client c, Tier2Server s) throws Exception {
        Tier2Call call = c.dial(job("h", 0, 0));
        await().atMost(10, SECONDS).until(() -> started.contains("h0"));
        assertEquals(1, s.jobsHeld());
        return call;
    }

    private Dial waiting(GrpcTier2Client c, Tier2Server s, Job job) {
        int before = s.callsWaiting();
        Dial d = new Dial(c, job);
        await().atMost(10, SECONDS).until(() -> s.callsWaiting() == before + 1);
        return d;
    }

    @Test
    void aFreedSlotGoesToTheWaitingDialWithoutASecondDial() throws Exception {
        Tier2Server s = server(Tier2Server.builder().maxConcurrentJobs(1).waitingRoom(4, Duration.ofSeconds(30)));
        GrpcTier2Client c = client(s, Duration.ofSeconds(30));
        Tier2Call holder = hold(c, s);
        Dial waiter = waiting(c, s, job("a", 5, 0));
        // still waiting well after the refused delay of 100 ms a refusing tier2 would have made it redial after
        await().during(Duration.ofMillis(300)).atMost(5, SECONDS).until(() -> waiter.result.get() == null);
        finish("h0");
        holder.await();
        holder.close();
        try (Tier2Call call = waiter.admitted()) {
            assertTrue(started.contains("a5"));
            finish("a5");
            call.await();
        }
        assertEquals(2, s.jobsAdmitted());
        assertEquals(0, s.callsRefused(), "the waiter was refused and dialed again");
        assertEquals(0, s.callsWaiting());
    }

    @Test
    void freedSlotsGoToTenantsInTurnAndWithinATenantToTheLowestRank() throws Exception {
        Tier2Server s = server(Tier2Server.builder().maxConcurrentJobs(1).waitingRoom(8, Duration.ofSeconds(30)));
        GrpcTier2Client c = client(s, Duration.ofSeconds(30));
        Tier2Call holder = hold(c, s);
        List<Dial> dials = List.of(
                waiting(c, s, job("a", 12, 2)),
                waiting(c, s, job("a", 10, 0)),
                waiting(c, s, job("b", 21, 1)),
                waiting(c, s, job("b", 23, 3)),
                waiting(c, s, job("a", 17, 7)));
        finish("h0");
        for (int i = 1; i <= dials.size(); i++) {
            int n = i + 1;
            await().atMost(10, SECONDS).until(() -> started.size() >= n);
            finish(started.get(i));
        }
        // a goes first (it waited first), then b, then a again (each tenant's lowest rank first); a's last job
        // goes after b's last, as b has none left
        assertEquals(List.of("h0", "a10", "b21", "a12", "b23", "a17"), started);
        for (Dial d : dials) {
            d.admitted().await();
        }
        holder.close();
        assertEquals(0, s.callsRefused());
    }

    @Test
    void aWaiterWhoseWaitEndsIsRefusedAsAFullTier2Refuses() throws Exception {
        Tier2Server s = server(Tier2Server.builder().maxConcurrentJobs(1).waitingRoom(4, Duration.ofMillis(300)));
        GrpcTier2Client patient = client(s, Duration.ofSeconds(30));
        Tier2Call holder = hold(patient, s);
        long t0 = System.nanoTime();
        Tier2Exception serverLimit = new Dial(patient, job("a", 1, 0)).refused();
        // the server's 300 ms, not the client's 30 s
        assertTrue(System.nanoTime() - t0 < SECONDS.toNanos(10));
        assertEquals(Kind.REFUSED, serverLimit.kind());
        assertTrue(serverLimit.getMessage().contains("service currently overloaded"), serverLimit.getMessage());

        Tier2Server longer = server(Tier2Server.builder().maxConcurrentJobs(1).waitingRoom(4,
                Duration.ofSeconds(30)));
        GrpcTier2Client hurried = client(longer, Duration.ofMillis(200));
        Tier2Call holder2 = hold2(hurried, longer);
        long t1 = System.nanoTime();
        Tier2Exception clientLimit = new Dial(hurried, job("b", 1, 0)).refused();
        assertTrue(System.nanoTime() - t1 < SECONDS.toNanos(10));
        assertEquals(Kind.REFUSED, clientLimit.kind());
        assertEquals(0, s.callsWaiting());
        assertEquals(0, longer.callsWaiting());
        assertEquals(1, s.callsRefused());
        assertEquals(1, longer.callsRefused());
        holder.close();
        holder2.close();
    }

    /** As {@link #hold} for a second server in the same test. */
    private Tier2Call hold2(GrpcTier2Client c, Tier2Server s) throws Exception {
        Tier2Call call = c.dial(job("g", 0, 0));
        await().atMost(10, SECONDS).until(() -> s.jobsHeld() == 1);
        return call;
    }

    @Test
    void aFullRoomGivesTheWorstWaitersSeatToABetterDialAndRefusesAWorseOne() throws Exception {
        Tier2Server s = server(Tier2Server.builder().maxConcurrentJobs(1).waitingRoom(2, Duration.ofSeconds(30)));
        GrpcTier2Client c = client(s, Duration.ofSeconds(30));
        Tier2Call holder = hold(c, s);
        Dial rank5 = waiting(c, s, job("a", 5, 5));
        Dial rank3 = waiting(c, s, job("a", 3, 3));
        Dial rank1 = new Dial(c, job("a", 1, 1));
        assertEquals(Kind.REFUSED, rank5.refused().kind(), "the worst waiter keeps its seat");
        Tier2Exception worse = new Dial(c, job("a", 9, 9)).refused();
        assertEquals(Kind.REFUSED, worse.kind());
        assertEquals(2, s.callsWaiting());
        finish("h0");
        await().atMost(10, SECONDS).until(() -> started.size() == 2);
        finish("a1");
        await().atMost(10, SECONDS).until(() -> started.size() == 3);
        finish("a3");
        assertEquals(List.of("h0", "a1", "a3"), started);
        rank1.admitted().close();
        rank3.admitted().close();
        holder.close();
        assertEquals(2, s.callsRefused());
    }

    @Test
    void aCancelledWaiterLeavesTheRoomAtOnceAndTheSlotGoesToTheNextWaiter() throws Exception {
        Tier2Server s = server(Tier2Server.builder().maxConcurrentJobs(1).waitingRoom(4, Duration.ofSeconds(30)));
        GrpcTier2Client c = client(s, Duration.ofSeconds(30));
        Tier2Call holder = hold(c, s);
        Dial best = waiting(c, s, job("a", 1, 0));
        Dial next = waiting(c, s, job("a", 4, 3));
        best.thread.interrupt(); // the engine cancels a dial by interrupting it; the client cancels the call
        assertTrue(best.awaitResult() instanceof InterruptedException, String.valueOf(best.result.get()));
        await().atMost(10, SECONDS).until(() -> s.callsWaiting() == 1);

        // a call whose deadline passes while it waits leaves too
        GrpcTier2Client deadline = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + s.port()))
                .healthChecking(false).admissionWait(Duration.ofSeconds(30)).callTimeout(Duration.ofMillis(300))
                .build();
        toClose.add(deadline);
        Tier2Exception expired = new Dial(deadline, job("b", 0, 0)).refused();
        assertEquals(Kind.UNREACHABLE, expired.kind(), expired.getMessage());
        await().atMost(10, SECONDS).until(() -> s.callsWaiting() == 1);

        finish("h0");
        try (Tier2Call call = next.admitted()) {
            finish("a4");
            call.await();
        }
        assertEquals(List.of("h0", "a4"), started, "a waiter that left was handed the slot");
        // the server gives the slot back after it sent Completed, which the client may read first
        await().atMost(10, SECONDS).until(() -> s.jobsHeld() == 0);
        assertEquals(2, s.jobsAdmitted());
        holder.close();
    }

    @Test
    void aWaiterWhoseConnectionBreaksLeavesTheRoom() throws Exception {
        Tier2Server s = server(Tier2Server.builder().maxConcurrentJobs(1).waitingRoom(4, Duration.ofSeconds(30)));
        GrpcTier2Client c = client(s, Duration.ofSeconds(30));
        Tier2Call holder = hold(c, s);
        TcpProxy link = TcpProxy.start(new InetSocketAddress("127.0.0.1", s.port()));
        toClose.add(link);
        GrpcTier2Client other = GrpcTier2Client.builder().addresses(List.of(link.hostPort()))
                .healthChecking(false).admissionWait(Duration.ofSeconds(30)).build();
        toClose.add(other);
        Dial gone = waiting(other, s, job("z", 0, 0));
        link.cut(); // both sockets reset: the server hears no cancel, only the connection breaking
        await().atMost(10, SECONDS).until(() -> s.callsWaiting() == 0);
        assertFalse(gone.awaitResult() instanceof Tier2Call);
        finish("h0");
        holder.await();
        holder.close();
        await().atMost(10, SECONDS).until(() -> s.jobsHeld() == 0);
        assertEquals(List.of("h0"), started);
    }

    private static ServingStatus loadStatus(HealthGrpc.HealthBlockingStub health) {
        return health.check(HealthCheckRequest.newBuilder().setService(Tier2Protocol.SERVICE_NAME).build())
                .getStatus();
    }

    @Test
    void theLoadStatusIsNotServingOnlyWhileTheRoomIsFullToo() throws Exception {
        Tier2Server s = server(Tier2Server.builder().maxConcurrentJobs(1).waitingRoom(2, Duration.ofSeconds(30))
                .loadStatusDelay(Duration.ZERO));
        GrpcTier2Client c = client(s, Duration.ofSeconds(30));
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", s.port()).usePlaintext().build();
        toClose.add(() -> channel.shutdownNow().awaitTermination(5, SECONDS));
        HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
        Tier2Call holder = hold(c, s);
        assertEquals(ServingStatus.SERVING, loadStatus(health), "every slot taken, but the room has seats");
        Dial first = waiting(c, s, job("a", 1, 0));
        assertEquals(ServingStatus.SERVING, loadStatus(health), "one seat left");
        Dial second = waiting(c, s, job("a", 2, 1));
        assertEquals(ServingStatus.NOT_SERVING, loadStatus(health), "slots and seats all taken");
        second.thread.interrupt();
        await().atMost(10, SECONDS).until(() -> loadStatus(health) == ServingStatus.SERVING);
        finish("h0");
        first.admitted().close();
        holder.close();
    }

    @Test
    void aDialThatDoesNotAskToWaitIsRefusedAtOnceByAServerWithARoom() throws Exception {
        // an older client sends no priority: what a client with no admissionWait sends, byte for byte
        Tier2Server s = server(Tier2Server.builder().maxConcurrentJobs(1).waitingRoom(4, Duration.ofSeconds(30)));
        GrpcTier2Client old = client(s, Duration.ZERO);
        Tier2Call holder = hold(old, s);
        long t0 = System.nanoTime();
        Tier2Exception refused = assertThrows(Tier2Exception.class, () -> old.dial(job("a", 1, 0)));
        assertTrue(System.nanoTime() - t0 < SECONDS.toNanos(10), "it waited for the room's 30 s");
        assertEquals(Kind.REFUSED, refused.kind());
        assertEquals(0, s.callsWaiting());
        holder.close();
    }

    @Test
    void aClientThatAsksToWaitIsRefusedAtOnceByAServerWithoutARoom() throws Exception {
        Tier2Server s = server(Tier2Server.builder().maxConcurrentJobs(1));
        // a wait longer than a Duration's nanoseconds can hold: the client saturates it rather than overflowing
        GrpcTier2Client c = client(s, Duration.ofDays(400_000));
        Tier2Call holder = hold(c, s);
        long t0 = System.nanoTime();
        Tier2Exception refused = assertThrows(Tier2Exception.class, () -> c.dial(job("a", 1, 0)));
        assertTrue(System.nanoTime() - t0 < SECONDS.toNanos(10), "it waited for the client's wait");
        assertEquals(Kind.REFUSED, refused.kind());
        assertEquals(1, s.callsRefused());
        holder.close();
    }

    @Test
    void drainingRefusesTheWaitersAtOnce() throws Exception {
        Tier2Server s = server(Tier2Server.builder().maxConcurrentJobs(1).waitingRoom(4, Duration.ofSeconds(30)));
        GrpcTier2Client c = client(s, Duration.ofSeconds(30));
        hold(c, s);
        Dial waiter = waiting(c, s, job("a", 1, 0));
        Thread closer = Thread.ofVirtual().start(s::close);
        assertEquals(Kind.UNREACHABLE, waiter.refused().kind(), "a draining tier2 is unreachable, never full");
        closer.join(Duration.ofSeconds(20));
        assertEquals(List.of("h0"), started);
    }

    @Test
    void neverMoreJobsRunThanTheSlotsUnderRacingFreesAndCancels() throws Exception {
        int slots = 3;
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger mostHeld = new AtomicInteger();
        AtomicReference<Tier2Server> server = new AtomicReference<>();
        JobWorker counting = (job, work) -> {
            int now = running.incrementAndGet();
            most.accumulateAndGet(now, Math::max);
            mostHeld.accumulateAndGet(server.get().jobsHeld(), Math::max);
            try {
                Thread.sleep(ThreadLocalRandom.current().nextInt(3)); // the job's work
            } finally {
                running.decrementAndGet();
            }
        };
        Tier2Server s = Tier2Server.builder().maxConcurrentJobs(slots).waitingRoom(6, Duration.ofMillis(200))
                .worker(counting).drainGrace(Duration.ZERO).build();
        server.set(s);
        toClose.add(s);
        s.start();
        GrpcTier2Client c = client(s, Duration.ofSeconds(1));
        AtomicInteger completed = new AtomicInteger();
        AtomicInteger cancelledRunning = new AtomicInteger();
        AtomicInteger interrupted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        List<Thread> tenants = new ArrayList<>();
        for (int t = 0; t < 12; t++) {
            String tenant = "t" + (t % 4);
            tenants.add(Thread.ofVirtual().start(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < 120; i++) {
                    Job j = job(tenant, 100 + random.nextInt(50), random.nextInt(50));
                    int action = random.nextInt(3);
                    if (action == 2) { // cancel the dial at a random moment: waiting, admitted or not yet sent
                        Dial d = new Dial(c, j);
                        LockSupport.parkNanos(random.nextInt(2_000_000));
                        d.thread.interrupt();
                        Object r = d.awaitResult();
                        if (r instanceof Tier2Call call) {
                            call.close();
                        }
                        interrupted.incrementAndGet();
                        continue;
                    }
                    try (Tier2Call call = c.dial(j)) {
                        if (action == 1) {
                            cancelledRunning.incrementAndGet(); // close() cancels the running job
                        } else {
                            call.await();
                            completed.incrementAndGet();
                        }
                    } catch (Tier2Exception e) {
                        refused.incrementAndGet();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }));
        }
        for (Thread t : tenants) {
            t.join(Duration.ofSeconds(40));
            assertFalse(t.isAlive(), "a tenant did not finish");
        }
        await().atMost(10, SECONDS).until(() -> s.jobsHeld() == 0 && s.callsWaiting() == 0);
        assertTrue(most.get() <= slots, "jobs ran at once: " + most.get());
        assertTrue(mostHeld.get() <= slots, "slots held at once: " + mostHeld.get());
        assertEquals(slots, most.get(), "the race never filled the instance, so it tested nothing");
        assertTrue(completed.get() > 0 && interrupted.get() > 0 && cancelledRunning.get() > 0,
                completed + " completed, " + interrupted + " dials cancelled, " + cancelledRunning
                        + " running jobs cancelled");
    }

    @Test
    void anEngineWhoseDialsWaitReadsInOrderAndIsNeverRefused() throws Exception {
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        List<Long> ranks = new CopyOnWriteArrayList<>();
        JobWorker writing = (job, work) -> {
            ranks.add(job.rank());
            Thread.sleep(ThreadLocalRandom.current().nextInt(3));
            outputs.write(job.key().segment(), Long.toString(job.key().segment()).getBytes(UTF_8));
        };
        Tier2Server s = Tier2Server.builder().maxConcurrentJobs(3).waitingRoom(16, Duration.ofSeconds(30))
                .worker(writing).build().start();
        toClose.add(s);
        GrpcTier2Client c = client(s, Duration.ofSeconds(30));
        AtomicLong next = new AtomicLong();
        RequestResult result = Orderly.engine(EngineConfig.defaults()).run(Request.of(new RequestPlan(0, 40, 1, 8),
                c, outputs, (segment, output) -> {
                    assertEquals(next.getAndIncrement(), segment, "out of order");
                    assertEquals(Long.toString(segment), new String(output, UTF_8));
                }));
        assertEquals(40, result.segmentsDelivered());
        assertEquals(0, result.refusals(), "8 workers on 3 slots were refused although their dials could wait");
        assertEquals(result.admissions(), result.dials());
        assertEquals(0, s.callsRefused());
        assertTrue(ranks.stream().allMatch(r -> r >= 0) && ranks.stream().anyMatch(r -> r > 0),
                "the engine's dials carried no rank: " + ranks);
    }

    @Test
    void badRoomSettingsAreRefusedNamingTheFieldAndTheValue() {
        IllegalArgumentException capacity = assertThrows(IllegalArgumentException.class,
                () -> Tier2Server.builder().waitingRoom(0, Duration.ofSeconds(1)));
        assertEquals("waitingRoom capacity must be >= 1, was 0", capacity.getMessage());
        IllegalArgumentException wait = assertThrows(IllegalArgumentException.class,
                () -> Tier2Server.builder().waitingRoom(4, Duration.ZERO));
        assertEquals("waitingRoom maxWait must be > 0, was PT0S", wait.getMessage());
        assertThrows(NullPointerException.class, () -> Tier2Server.builder().waitingRoom(4, null));
        IllegalArgumentException admissionWait = assertThrows(IllegalArgumentException.class,
                () -> GrpcTier2Client.builder().admissionWait(Duration.ofMillis(-1)));
        assertEquals("admissionWait must be >= 0, was PT-0.001S", admissionWait.getMessage());
        assertThrows(NullPointerException.class, () -> GrpcTier2Client.builder().admissionWait(null));
    }
}
