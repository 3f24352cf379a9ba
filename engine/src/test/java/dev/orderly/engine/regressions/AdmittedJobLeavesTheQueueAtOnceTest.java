package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.ThreadCensus;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job leaves the launch queue the moment a tier2 admits it, not when it ends: its place and its dial slot go to
 * the next job at once. Otherwise a request whose admitted jobs run for a long time would dial no more than the launch
 * window's worth of jobs, while it has workers and the fleet has room.
 *
 * <p>4 workers make a window of 2. Every unit's first dial is refused, so every job waits in the queue; each second
 * dial is admitted and its job then runs until the test ends the request. All 4 must be running at once.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AdmittedJobLeavesTheQueueAtOnceTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 8, 1, 4);

    @Test
    void jobsRunningOnATier2DoNotHoldTheWindowsDialSlots() {
        EngineConfig config = Fixtures.fast();
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write,
                job -> job.attempt() == 1 ? Script.refuse(1) : Script.block());
        ThreadCensus census = new ThreadCensus();
        Background run = new Background(census.engine(config), Request.of(PLAN, tier2, store, new RecordingClient()));
        try {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertEquals(PLAN.workers(), tier2.blocked(),
                    "jobs admitted and running at once, with 4 workers and a launch window of 2"));
        } finally {
            run.interrupt();
        }

        assertInstanceOf(InterruptedException.class, run.failure(10));
        assertEquals(0, census.alive(), "request threads alive after run ended");
        assertEquals(0, tier2.openCalls(), "open calls");
    }
}
