package dev.orderly.engine;

import static dev.orderly.engine.Fixtures.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.internal.OrderlyEngine;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many requests at once on one engine with a small engine-wide job cap, with random faults (refusals, failures,
 * timeouts, missing outputs and so re-runs that withdraw jobs), some cancelled by an interrupt at a random dial and
 * some whose client throws. A permit lost on any of those paths would leave a request waiting for ever, and the cap's
 * own invariants are asserted on every change (the suite runs with {@code -ea}): every request ends, in order, and
 * nothing is left open or alive.
 */
class AnEngineWideJobCapUnderFaultsLeavesNothingBehindTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void requestsFailingAndCancelledUnderACapStillLetEveryOtherRequestFinish() throws Exception {
        ThreadCensus census = new ThreadCensus();
        EngineConfig config = Fixtures.fast().toBuilder().refusedDelay(Duration.ofMillis(1))
                .failureDelay(Duration.ofMillis(2)).maxConcurrentJobs(6).build();
        OrderlyEngine engine = new OrderlyEngine(config, census);
        List<String> wrong = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger delivered = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger cancelled = new AtomicInteger();
        AtomicInteger openCalls = new AtomicInteger();
        int requests = 200;
        try (ExecutorService callers = Executors.newFixedThreadPool(24, Thread.ofVirtual().factory())) {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                long seed = 50_000 + i;
                all.add(callers.submit(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    RequestPlan plan = new RequestPlan(0, random.nextInt(1, 30), random.nextInt(1, 3),
                            random.nextInt(1, 9));
                    InMemoryOutputStore store = new InMemoryOutputStore();
                    ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, new RandomFaults(seed, 0.5));
                    RecordingClient recorder = new RecordingClient();
                    long clientFailsAt = random.nextInt(8) == 0 ? random.nextLong(0, plan.endSegment()) : -1;
                    int cancelAtDial = random.nextInt(5) == 0 ? random.nextInt(1, 20) : -1;
                    Thread caller = Thread.currentThread();
                    AtomicInteger dials = new AtomicInteger();
                    Request request = Request.of(plan, tier2, store, (segment, output) -> {
                        if (segment == clientFailsAt) {
                            throw new IllegalStateException("client gave up");
                        }
                        recorder.accept(segment, output);
                    }).withListener(new RequestListener() {
                        @Override
                        public void onDial(Job job) {
                            if (dials.incrementAndGet() == cancelAtDial) {
                                caller.interrupt();
                            }
                        }
                    });
                    try {
                        RequestResult result = engine.run(request);
                        delivered.incrementAndGet();
                        if (!recorder.segments().equals(range(0, plan.endSegment()))
                                || result.segmentsDelivered() != plan.endSegment()) {
                            wrong.add("seed " + seed + " delivered " + recorder.segments());
                        }
                    } catch (RequestFailedException e) {
                        failed.incrementAndGet();
                    } catch (InterruptedException e) {
                        cancelled.incrementAndGet();
                        if (cancelAtDial < 0) {
                            wrong.add("seed " + seed + " interrupted without a cancellation");
                        }
                    } finally {
                        Thread.interrupted();
                    }
                    if (!recorder.segments().equals(range(0, recorder.segments().size()))) {
                        wrong.add("seed " + seed + " delivered out of order " + recorder.segments());
                    }
                    if (!Quiet.within100Ms(tier2::openCalls, () -> 0)) {
                        wrong.add("seed " + seed + ": " + tier2.openCalls() + " call(s) open after run returned");
                    }
                    openCalls.addAndGet(tier2.openCalls() + tier2.doubleCloses());
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get(50, TimeUnit.SECONDS);
            }
        }
        assertEquals(List.of(), wrong);
        assertEquals(requests, delivered.get() + failed.get() + cancelled.get());
        assertTrue(delivered.get() > 0 && failed.get() > 0 && cancelled.get() > 0,
                "delivered " + delivered + ", failed " + failed + ", cancelled " + cancelled);
        assertEquals(0, openCalls.get(), "calls left open or closed twice");
        assertEquals(0, census.alive(), "request threads alive after every run ended");
    }
}
