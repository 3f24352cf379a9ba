package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.DialGate;
import dev.orderly.engine.LaunchQueue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a job withdrawn (its worker promised to the re-run of the client's segment) while its dial was in flight,
 * whose dial then failed after admission, sat out the whole failure delay on its worker before it gave it up, while
 * the client's re-run had none. It now gives its worker up as the dial ends, as it did after a refusal; the failure
 * delay it owes goes with its unit's counts, so the unit's next job still waits it before it dials.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AJobWithdrawnWhileItsDialFailsGivesItsWorkerUpAtOnceTest {

    private static final JobKey UNIT = new JobKey(3, 0);
    private static final Duration FAILURE_DELAY = Duration.ofSeconds(2);
    private static final EngineConfig CONFIG = EngineConfig.builder().refusedDelay(Duration.ofMillis(2))
            .failureDelay(FAILURE_DELAY).build();

    static Stream<Named<Function<EngineConfig, DialGate>>> gates() {
        return Stream.of(Named.of("launch queue", config -> new LaunchQueue(10, config)),
                Named.of("delay gate", DelayGate::new));
    }

    @AfterEach
    void clearInterrupt() {
        assertFalse(Thread.interrupted(), "the job left an interrupt on its thread");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gates")
    void theJobIsWithdrawnAsItsDialFailsAndItsUnitsNextJobWaitsTheDelay(Function<EngineConfig, DialGate> gates)
            throws Exception {
        DialGate gate = gates.apply(CONFIG);
        RunningJobs running = new RunningJobs(16, 4);
        List<Long> dialedAt = new CopyOnWriteArrayList<>();
        Tier2Client tier2 = job -> {
            dialedAt.add(System.nanoTime());
            if (job.attempt() == 1) {
                assertTrue(running.withdraw(UNIT), "the dialing job could not be withdrawn");
                throw Tier2Exception.retryable("tier2 broke", null);
            }
            return () -> { };
        };
        JobRunner runner = new JobRunner("r", 0, tier2, gate, CONFIG, new RequestCounters(), RequestListener.NONE,
                key -> true, new StallWatch("r", Duration.ofSeconds(30)), () -> 3);

        UnitCounts.Tally first = new UnitCounts.Tally(UnitCounts.NONE);
        JobHandle handle = running.start(UNIT);
        JobRunner.Outcome outcome;
        try {
            outcome = runner.run(UNIT, first, handle);
        } finally {
            running.end(handle);
        }
        long heldNanos = System.nanoTime() - dialedAt.get(0);

        assertEquals(JobRunner.Outcome.WITHDRAWN, outcome);
        assertTrue(heldNanos < FAILURE_DELAY.toNanos() / 5, () -> "the withdrawn job kept its worker for "
                + TimeUnit.NANOSECONDS.toMillis(heldNanos) + " ms, against a failure delay of 2 s");
        UnitCounts counts = first.counts();
        assertEquals(new UnitCounts(1, 1, 0, 0, true), counts, "the unit's counts, the delay it owes among them");

        // The unit's next job, from those counts, dials no sooner than the failure delay after the failure.
        UnitCounts.Tally second = new UnitCounts.Tally(counts);
        JobHandle next = running.start(UNIT);
        try {
            assertEquals(JobRunner.Outcome.DONE, runner.run(UNIT, second, next));
        } finally {
            running.end(next);
        }
        long gap = dialedAt.get(1) - dialedAt.get(0);
        assertTrue(gap >= FAILURE_DELAY.toNanos(), () -> "the unit dialed again after "
                + TimeUnit.NANOSECONDS.toMillis(gap) + " ms, within its failure delay");
        assertEquals(new UnitCounts(2, 1, 0, 1), second.counts());
    }
}
