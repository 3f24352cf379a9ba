package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Regression: under an engine-wide job cap, a unit the scheduler had handed out (its permit taken) but the owner had
 * not forked yet when another job failed the request kept its permit for the life of the engine. Neither scope starts
 * a task forked after it was cancelled, and says nothing of it, so no job ever reported the unit's end. Each time, the
 * cap shrank by one; once it had happened as many times as the cap, every request of the engine waited for ever.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AUnitHandedOutAsTheScopeIsCancelledGivesItsPermitBackTest {


    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.orderly.engine.internal.RequestScopeRulesTest#scopes")
    void theRequestsEndGivesBackThePermitOfAUnitNeverForked(String name, RequestScope.Factory real)
            throws Exception {
        JobKey second = new JobKey(1, 0);
        CountDownLatch failNow = new CountDownLatch(1);
        CompletableFuture<Thread> failing = new CompletableFuture<>();
        // The owner makes each job's task just before it forks it: for unit (1,0), handed out with its permit, the
        // hook lets job (0,0) fail the request and waits until that job's thread has ended, by which time the scope
        // is cancelled, so the fork that follows starts nothing.
        RequestScope.Factory hooked = (id, scheduler, observer) -> {
            RequestScope scope = real.open(id, scheduler, observer);
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
        Tier2Client tier2 = job -> {
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
        Request request = Request.of(new RequestPlan(0, 3, 1, 2), tier2, new InMemoryOutputStore(),
                (segment, output) -> { });

        assertThrows(RequestFailedException.class, () -> engine.run(request));

        assertEquals(0, engine.jobCap().alive(), () -> "permits held after the request ended: "
                + engine.jobCap().shares());
        assertTrue(engine.jobCap().shares().isEmpty(), () -> "seats left behind: " + engine.jobCap().shares());
        assertFalse(failing.get().isAlive());
    }

    private static void awaitEnd(CompletableFuture<Thread> thread) {
        try {
            assertTrue(thread.get(10, TimeUnit.SECONDS).join(Duration.ofSeconds(10)), "job (0,0) did not end");
        } catch (Exception e) {
            throw new AssertionError("job (0,0) did not start or end", e);
        }
    }
}
