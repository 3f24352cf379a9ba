package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.InMemoryOutputStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The edges of a request's wiring: a scope that can not open, and a thread hook that throws. Either way {@code run}
 * throws that exception, unchanged, and the request's share of the engine-wide job cap goes back, so the next request
 * runs.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class OrderlyEngineWiringTest {

    private static final EngineConfig CAPPED = EngineConfig.builder().maxConcurrentJobs(4).build();

    private static Request smallRequest() {
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        Tier2Client tier2 = job -> {
            outputs.write(job.key().segment(), new byte[] {1});
            return () -> { };
        };
        return Request.of(new RequestPlan(0, 3, 1, 2), tier2, outputs, (segment, output) -> { });
    }

    @Test
    void aScopeThatCanNotOpenGivesTheRequestsShareOfTheJobCapBack() throws Exception {
        IllegalStateException cannotOpen = new IllegalStateException("no scope today");
        AtomicInteger opens = new AtomicInteger();
        RequestScope.Factory real = RequestScopes.chosen().factory();
        OrderlyEngine engine = new OrderlyEngine(CAPPED, thread -> { }, (id, scheduler, observer) -> {
            if (opens.getAndIncrement() == 0) {
                throw cannotOpen;
            }
            return real.open(id, scheduler, observer);
        });

        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> engine.run(smallRequest()));
        assertSame(cannotOpen, thrown);
        assertTrue(engine.jobCap().shares().isEmpty(), "shares left behind: " + engine.jobCap().shares());

        assertEquals(3, engine.run(smallRequest()).segmentsDelivered());
        assertTrue(engine.jobCap().shares().isEmpty(), "shares left behind: " + engine.jobCap().shares());
    }

    @Test
    void aThreadHookThatThrowsComesUpUnchangedAndGivesTheShareBack() throws Exception {
        IllegalStateException hookFailed = new IllegalStateException("hook says no");
        OrderlyEngine engine = new OrderlyEngine(CAPPED, thread -> {
            throw hookFailed;
        });

        // The hook is the caller's own code, run as the scope makes each thread (here the first: the owner this
        // platform caller waits for): its exception is not a failure of the request's work, and is not wrapped as one.
        List<Throwable> heard = new CopyOnWriteArrayList<>();
        Request request = smallRequest().withListener(new RequestListener() {
            @Override
            public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
                heard.add(failure.getCause());
            }
        });
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> engine.run(request));
        assertSame(hookFailed, thrown);
        assertTrue(engine.jobCap().shares().isEmpty(), "shares left behind: " + engine.jobCap().shares());
        // The request still ends for its listener, as every request that started does.
        assertEquals(List.of(hookFailed), heard);
    }

    /**
     * Regression: a unit whose job's thread could not be made (here the hook throws as the owner forks the first job)
     * kept the permit the scheduler took for it, so the engine-wide cap lost a place for good. It now gives it back,
     * with those of the units after it in the owner's batch, and the hook's exception still comes up unchanged.
     */
    @Test
    void aUnitWhoseJobCouldNotBeForkedGivesItsPermitBack() throws Exception {
        for (RuntimeException or : new RuntimeException[] {new IllegalStateException("hook says no to a job"), null}) {
            Throwable hookFailed = or != null ? or : new AssertionError("hook fails on a job's thread");
            AtomicInteger made = new AtomicInteger();
            OrderlyEngine engine = new OrderlyEngine(CAPPED, thread -> {
                // From this platform caller: the owner, then the walker, then the first job.
                if (made.incrementAndGet() == 3) {
                    if (hookFailed instanceof RuntimeException e) {
                        throw e;
                    }
                    throw (Error) hookFailed;
                }
            });

            Throwable thrown = assertThrows(Throwable.class, () -> engine.run(smallRequest()));

            assertSame(hookFailed, thrown, "what run threw");
            assertTrue(engine.jobCap().shares().isEmpty(), "shares left behind: " + engine.jobCap().shares());
        }
    }
}
