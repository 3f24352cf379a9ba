package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.MDC;

/**
 * A job's log lines carry its request, segment and stage in the MDC while it runs, and it takes them off its thread
 * when it ends, whatever the thread does next.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class JobRunnerMdcTest {

    private static final EngineConfig CONFIG = EngineConfig.builder().build();
    @Test
    void aJobPutsItsKeysInTheMdcWhileItRunsAndTakesThemOffWhenItEnds() throws Exception {
        // The build's test binding keeps an MDC; with the no-operation one a job puts nothing, and this test says so.
        assertTrue(LogContext.KEPT, "the tests' SLF4J binding keeps no MDC");
        JobKey unit = new JobKey(7, 1);
        AtomicReference<Map<String, String>> duringTheDial = new AtomicReference<>();
        JobRunner runner = new JobRunner("r-mdc", 0, job -> {
            duringTheDial.set(MDC.getCopyOfContextMap());
            return () -> { }; // a Tier2Call that has finished by the time it is awaited
        }, new DelayGate(CONFIG), CONFIG, new RequestCounters(), RequestListener.NONE, key -> true,
                new StallWatch("r-mdc", Duration.ofSeconds(30)), () -> 7);
        RunningJobs running = new RunningJobs(16, 4);
        JobHandle handle = running.start(unit);
        try {
            assertEquals(JobRunner.Outcome.DONE, runner.run(unit, new UnitCounts.Tally(UnitCounts.NONE), handle));
        } finally {
            running.end(handle);
        }

        assertEquals(Map.of("request", "r-mdc", "segment", "7", "stage", "1"), duringTheDial.get());
        assertNull(MDC.get("request"));
        assertNull(MDC.get("segment"));
        assertNull(MDC.get("stage"));
    }
}
