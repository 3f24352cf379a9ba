package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many small requests on one engine with a small cap, started together from platform and virtual callers, each
 * refused, failed, re-run, interrupted mid-way or cut by a tiny deadline at random: once every one has ended, the cap
 * is whole again (no place lost or counted twice), and nobody waits.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ManySmallRequestsStartedAndCancelledAtOnceGiveEveryPlaceBackTest {

    @ParameterizedTest(name = "cap {0}")
    @ValueSource(ints = {1, 2, 3})
    void theCapIsWholeAgainOnceEveryRequestEnded(int cap) throws Exception {
        OrderlyEngine engine = new OrderlyEngine(EngineConfig.builder().maxConcurrentJobs(cap)
                .refusedDelay(Duration.ofMillis(1)).failureDelay(Duration.ofMillis(1)).maxFailures(3).build());
        int requests = 300;
        int callers = 12;
        AtomicInteger next = new AtomicInteger();
        AtomicInteger delivered = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger cancelled = new AtomicInteger();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
            Runnable caller = () -> {
                int i;
                while ((i = next.getAndIncrement()) < requests) {
                    try {
                        runOne(engine, i);
                        delivered.incrementAndGet();
                    } catch (RequestFailedException e) {
                        failed.incrementAndGet();
                    } catch (InterruptedException e) {
                        cancelled.incrementAndGet();
                        Thread.interrupted();
                    } catch (Throwable e) {
                        unexpected.compareAndSet(null, e);
                    }
                }
            };
            threads.add(c % 2 == 0 ? Thread.ofPlatform().start(caller) : Thread.ofVirtual().start(caller));
        }
        try {
            for (Thread t : threads) {
                assertTrue(t.join(Duration.ofSeconds(100)), "a caller did not end: " + engine.jobCap().shares());
            }
        } finally {
            threads.forEach(Thread::interrupt);
        }
        assertEquals(null, unexpected.get());
        assertEquals(requests, delivered.get() + failed.get() + cancelled.get());
        assertEquals(0, engine.jobCap().alive(), () -> "places held: " + engine.jobCap().shares());
        assertEquals(0, engine.jobCap().waiting(), () -> "still waiting: " + engine.jobCap().shares());
        assertTrue(engine.jobCap().shares().isEmpty(), () -> "seats left: " + engine.jobCap().shares());
        assertTrue(delivered.get() > 0 && failed.get() + cancelled.get() > 0,
                () -> delivered + " delivered, " + failed + " failed, " + cancelled + " cancelled");
    }

    private static void runOne(OrderlyEngine engine, int i) throws Exception {
        SplittableRandom random = new SplittableRandom(i * 7919L + 17);
        InMemoryOutputStore store = new InMemoryOutputStore();
        Thread caller = Thread.currentThread();
        int interruptAtDial = i % 5 == 0 ? 1 + random.nextInt(4) : -1;
        AtomicInteger dials = new AtomicInteger();
        long seed = random.nextLong();
        Tier2Client tier2 = job -> {
            SplittableRandom r = new SplittableRandom(seed + job.key().segment() * 31 + job.attempt());
            if (dials.incrementAndGet() == interruptAtDial) {
                caller.interrupt();
            }
            int roll = r.nextInt(100);
            if (roll < 15) {
                throw Tier2Exception.refused("busy");
            }
            if (roll < 20) {
                throw Tier2Exception.retryable("flaky", null);
            }
            if (roll < 22) {
                throw Tier2Exception.fatal("broken", null);
            }
            boolean lose = roll < 26;
            return () -> {
                Thread.yield();
                if (!lose) {
                    store.write(job.key().segment(), new byte[] {1});
                }
            };
        };
        int segments = 1 + random.nextInt(6);
        int stages = 1 + random.nextInt(2);
        int workers = 1 + random.nextInt(3);
        Request request = Request.of(new RequestPlan(0, segments, stages, workers), tier2, store,
                (segment, output) -> { }).withId("r" + i);
        if (i % 4 == 1) {
            request = request.withDeadline(Duration.ofMillis(1 + random.nextInt(20)));
        }
        try {
            engine.run(request);
        } finally {
            if (interruptAtDial > 0 && caller.isInterrupted()) {
                // An interrupt sent after the request's end: not the next request's.
                Thread.interrupted();
            }
        }
    }
}
