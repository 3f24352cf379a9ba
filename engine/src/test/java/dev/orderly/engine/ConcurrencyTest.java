package dev.orderly.engine;

import static dev.orderly.engine.Fixtures.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Engine;
import dev.orderly.api.Job;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.testing.InMemoryFleet;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Many requests on one engine at once: each has its own queue and scope, and none leaves anything behind. */
class ConcurrencyTest {

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void fiftyConcurrentRequestsOnOneEngineOverASharedFullFleetEachDeliverInOrder(boolean ordered) throws Exception {
        // One instance of 24 slots, each job holding its slot for 0.2 ms: 50 requests keep it full.
        InMemoryFleet fleet = InMemoryFleet.builder().slotsPerInstance(24).jobTime(Duration.ofNanos(200_000))
                .keepLog(false).build();
        ThreadCensus census = new ThreadCensus();
        Engine engine = census.engine((ordered ? Fixtures.fast() : Fixtures.fastUnordered()).toBuilder()
                .refusedDelay(Duration.ofMillis(1)).build());
        List<Future<List<Long>>> outcomes = new ArrayList<>();
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 50; i++) {
                RequestPlan plan = new RequestPlan(i * 100L, i * 100L + 40, 1 + i % 3, 2 + i % 5);
                outcomes.add(callers.submit(() -> {
                    InMemoryOutputStore store = new InMemoryOutputStore();
                    RecordingClient client = new RecordingClient();
                    RequestResult result = engine.run(Request.of(plan,
                            fleet.tenant(plan, store::write).client(), store, client));
                    assertEquals(40, result.segmentsDelivered());
                    assertEquals(0, client.overlaps());
                    assertEquals(List.of(), client.wrongOutputs());
                    return client.segments();
                }));
            }
        }
        for (int i = 0; i < 50; i++) {
            assertEquals(range(i * 100L, i * 100L + 40), outcomes.get(i).get(), "request " + i);
        }
        assertTrue(fleet.refusals() > 0, "the fleet was never full, so this tested no contention");
        assertEquals(0, fleet.busySlots());
        assertTrue(fleet.peakBusySlots() <= fleet.capacity(), "peak " + fleet.peakBusySlots());
        assertEquals(0, census.alive());
    }

    /**
     * 2,400 small requests, 8 at a time, with random faults, some cancelled by an interrupt of their caller at a random
     * dial and some whose client throws. Afterwards no request thread is alive and no call is open; every admitted
     * job heard its end; the listener's figures are the caller's.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void soakOfThousandsOfRequestsWithFaultsAndCancellationsLeavesNoThreadAndNoOpenCall() throws Exception {
        int requests = 2_400;
        ThreadCensus census = new ThreadCensus();
        EngineConfig base = EngineConfig.builder()
                .refusedDelay(Duration.ofMillis(1))
                .failureDelay(Duration.ofMillis(2))
                .build();
        AtomicLong openCalls = new AtomicLong();
        AtomicInteger delivered = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger cancelled = new AtomicInteger();
        List<String> wrong = java.util.Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService callers = Executors.newFixedThreadPool(8, Thread.ofVirtual().factory())) {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                long seed = 10_000 + i;
                all.add(callers.submit(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    RequestPlan plan = new RequestPlan(0, random.nextInt(1, 16), random.nextInt(1, 3),
                            random.nextInt(1, 5));
                    InMemoryOutputStore store = new InMemoryOutputStore();
                    ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, new RandomFaults(seed, 0.5));
                    RecordingClient recorder = new RecordingClient();
                    long clientFailsAt = random.nextInt(8) == 0 ? random.nextLong(0, plan.endSegment()) : -1;
                    int cancelAtDial = random.nextInt(4) == 0 ? random.nextInt(1, 12) : -1;
                    Thread caller = Thread.currentThread();
                    AtomicInteger dials = new AtomicInteger();
                    Request request = Request.of(plan, tier2, store, (segment, output) -> {
                        if (segment == clientFailsAt) {
                            throw new IllegalStateException("client gave up");
                        }
                        recorder.accept(segment, output);
                    });
                    JobEndLedger ledger = new JobEndLedger() {
                        @Override
                        public void onDial(Job job) {
                            if (dials.incrementAndGet() == cancelAtDial) {
                                caller.interrupt();
                            }
                        }
                    };
                    Request listened = request.withListener(ledger);
                    ThreadCensus mine = new ThreadCensus();
                    EngineConfig config = random.nextBoolean() ? base : base.toBuilder().ordered(false).build();
                    try {
                        RequestResult result = new dev.orderly.engine.internal.OrderlyEngine(config, thread -> {
                            census.accept(thread);
                            mine.accept(thread);
                        }).run(listened);
                        if (!ledger.ends().equals(List.of(result))) {
                            wrong.add("seed " + seed + ": the listener got " + ledger.ends() + ", run returned " + result);
                        }
                        delivered.incrementAndGet();
                        if (!Quiet.within100Ms(tier2::openCalls, mine::alive)) {
                            wrong.add("seed " + seed + ": " + tier2.openCalls() + " call(s) open, " + mine.alive()
                                    + " request thread(s) alive 100 ms after run returned");
                        }
                        if (!recorder.segments().equals(range(0, plan.endSegment()))) {
                            wrong.add("seed " + seed + " delivered " + recorder.segments());
                        }
                    } catch (RequestFailedException e) {
                        if (!ledger.ends().equals(List.of(e.partialResult().orElseThrow()))) {
                            wrong.add("seed " + seed + ": the listener got " + ledger.ends() + ", the caller "
                                    + e.partialResult());
                        }
                        failed.incrementAndGet();
                        if (e.key().isEmpty() && clientFailsAt < 0) {
                            wrong.add("seed " + seed + " failed naming no unit: " + e.getMessage());
                        }
                    } catch (InterruptedException e) {
                        if (!ledger.ends().equals(List.of(RequestFailedException.partialResultOf(e).orElseThrow()))) {
                            wrong.add("seed " + seed + ": the listener got " + ledger.ends() + ", the caller "
                                    + RequestFailedException.partialResultOf(e));
                        }
                        cancelled.incrementAndGet();
                        if (cancelAtDial < 0) {
                            wrong.add("seed " + seed + " interrupted without a cancellation");
                        }
                    } finally {
                        Thread.interrupted();
                    }
                    ledger.violations().forEach(v -> wrong.add("seed " + seed + ": " + v));
                    if (!recorder.segments().equals(range(0, recorder.segments().size()))) {
                        wrong.add("seed " + seed + " delivered out of order " + recorder.segments());
                    }
                    openCalls.addAndGet(tier2.openCalls() + tier2.doubleCloses());
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        }
        assertEquals(List.of(), wrong);
        assertEquals(requests, delivered.get() + failed.get() + cancelled.get());
        assertTrue(delivered.get() > 0 && failed.get() > 0 && cancelled.get() > 0,
                "delivered " + delivered + ", failed " + failed + ", cancelled " + cancelled);
        assertEquals(0, openCalls.get(), "calls left open or closed twice");
        assertTrue(census.created() > requests, "threads created: " + census.created());
        assertEquals(0, census.alive(), "request threads alive after every run ended");
    }
}
