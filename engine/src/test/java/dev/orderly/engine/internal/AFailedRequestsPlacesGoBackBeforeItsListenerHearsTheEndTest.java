package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Regression: under an engine-wide job cap, the place of a unit handed out but never started (the owner forked it
 * into a scope the request's failure had just cancelled) came back only after the request's end event: a listener
 * that took its time in {@code onRequestFailed} (or ran the request again from there) kept that place from every
 * other request of the engine, though the guide says a failed request's places go to the others at once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AFailedRequestsPlacesGoBackBeforeItsListenerHearsTheEndTest {


    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.orderly.engine.internal.RequestScopeRulesTest#scopes")
    void anotherRequestGetsEveryPlaceWhileTheFailedOnesListenerRuns(String name, RequestScope.Factory real)
            throws Exception {
        JobKey second = new JobKey(1, 0);
        CountDownLatch failNow = new CountDownLatch(1);
        CompletableFuture<Thread> failing = new CompletableFuture<>();
        // Unit (1,0) of request a is handed out with its place; before the owner forks it, job (0,0) fails the
        // request and ends, so the fork that follows starts nothing.
        RequestScope.Factory hooked = (id, scheduler, observer) -> {
            RequestScope scope = real.open(id, scheduler, observer);
            if (!id.equals("a")) {
                return scope;
            }
            return (walker, jobs) -> scope.run(walker, (key, prior) -> {
                if (key.equals(second)) {
                    failNow.countDown();
                    awaitEnd(failing);
                }
                return jobs.job(key, prior);
            });
        };
        OrderlyEngine engine = new OrderlyEngine(EngineConfig.builder().maxConcurrentJobs(2).build(),
                thread -> { }, hooked);
        Tier2Client failingTier2 = job -> {
            if (job.key().segment() == 0) {
                failing.complete(Thread.currentThread());
                try {
                    failNow.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw Tier2Exception.fatal("segment 0 breaks", null);
            }
            return () -> { };
        };
        // Request b, two workers: both its jobs dial once both places of the cap are free, and stay on until released.
        CountDownLatch bothDialed = new CountDownLatch(2);
        CountDownLatch releaseB = new CountDownLatch(1);
        InMemoryOutputStore bStore = new InMemoryOutputStore();
        Tier2Client holdingTier2 = job -> {
            bothDialed.countDown();
            return () -> {
                releaseB.await();
                bStore.write(job.key().segment(), new byte[] {1});
            };
        };
        Request b = Request.of(new RequestPlan(0, 2, 1, 2), holdingTier2, bStore,
                (segment, output) -> { }).withId("b");
        AtomicBoolean bGotBothPlaces = new AtomicBoolean();
        AtomicReference<String> capThen = new AtomicReference<>();
        AtomicReference<Thread> bCaller = new AtomicReference<>();
        AtomicReference<Throwable> bFailure = new AtomicReference<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
                // A listener that takes its time: b is started now, and waited for (bounded) while a's end is told.
                Thread t = Thread.ofPlatform().start(() -> {
                    try {
                        engine.run(b);
                    } catch (Throwable e) {
                        bFailure.set(e);
                    }
                });
                bCaller.set(t);
                try {
                    bGotBothPlaces.set(bothDialed.await(5, TimeUnit.SECONDS));
                    capThen.set((2 - bothDialed.getCount()) + " of the cap's 2 places, the cap then "
                            + engine.jobCap().shares());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        Request a = Request.of(new RequestPlan(0, 3, 1, 2), failingTier2, new InMemoryOutputStore(),
                (segment, output) -> { }).withId("a").withListener(listener);
        try {
            assertThrows(RequestFailedException.class, () -> engine.run(a));
        } finally {
            releaseB.countDown();
            Thread t = bCaller.get();
            if (t != null) {
                assertTrue(t.join(Duration.ofSeconds(20)), "request b did not end");
            }
        }
        assertEquals(null, bFailure.get());
        assertTrue(bGotBothPlaces.get(),
                () -> "while a's onRequestFailed ran (5 s), request b got " + capThen.get());
        assertEquals(0, engine.jobCap().alive(), () -> "places held after every request ended: "
                + engine.jobCap().shares());
    }

    private static void awaitEnd(CompletableFuture<Thread> thread) {
        try {
            assertTrue(thread.get(10, TimeUnit.SECONDS).join(Duration.ofSeconds(10)), "job (0,0) did not end");
        } catch (Exception e) {
            throw new AssertionError("job (0,0) did not start or end", e);
        }
    }
}
