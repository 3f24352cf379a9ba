package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.InMemoryOutputStore;
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

        // The hook is the caller's own code, run on the caller's thread as the scope forks: its exception is not a
        // failure of the request's work, and is not wrapped as one.
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> engine.run(smallRequest()));
        assertSame(hookFailed, thrown);
        assertTrue(engine.jobCap().shares().isEmpty(), "shares left behind: " + engine.jobCap().shares());
    }
}
