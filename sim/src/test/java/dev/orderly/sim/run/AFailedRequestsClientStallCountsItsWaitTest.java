package dev.orderly.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.sim.fleet.FaultRates;
import dev.orderly.sim.fleet.FleetConfig;
import dev.orderly.sim.fleet.TimeScale;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client stall of a request that failed was reported as 0.00 s though its client had waited the whole time: the
 * recorder counted a wait only when a segment arrived, so the wait that a failure ended (before any segment, or after
 * the last one delivered) was lost. Now the wait up to the request's end counts too.
 */
@Timeout(30)
class AFailedRequestsClientStallCountsItsWaitTest {

    /** One tenant, one worker, jobs of 200 ms at 10x (20 ms wall), an instant client; only the given fatal rate. */
    private static RunResult run(int segments, double fatalRate, long seed) throws InterruptedException {
        FleetConfig fleet = new FleetConfig(1, 1, Duration.ofMillis(200), 0, new FaultRates(0, 0, 0, fatalRate, 0),
                seed, new TimeScale(10));
        Scenario scenario = new Scenario(segments, 1, 1, 1, fleet, Duration.ZERO, Duration.ofMillis(100),
                Duration.ofMillis(100));
        return new SimulationRun(scenario, RunSpec.all(Strategy.ORDERED, 1), Duration.ofSeconds(10), p -> { }).run();
    }

    /** When the job whose failure failed the request ended, in wall nanoseconds from the run's start. */
    private static long failedAt(TenantRecord r) {
        return r.jobs().stream().filter(j -> j.ending() == JobTrace.Ending.FAILED).mapToLong(JobTrace::endedAt)
                .min().orElseThrow();
    }

    @Test
    void aRequestThatFailedBeforeItsFirstSegmentStalledItsClientUntilItFailed() throws InterruptedException {
        RunResult result = run(2, 1, 42);
        TenantResult t = result.tenants().getFirst();
        assertFalse(result.allCompleted(), "the request fails");
        TenantRecord r = t.record();
        assertEquals(0, r.delivered());
        assertTrue(r.clientIdleNanos() >= failedAt(r), "the client waited from the start until the request failed"
                + " (at least " + failedAt(r) + " ns), was " + r.clientIdleNanos() + " ns");
        assertTrue(r.clientIdleNanos() <= result.wallNanos(), "not past the run's end: " + r.clientIdleNanos());
    }

    @Test
    void aRequestThatFailedAfterADeliveryCountsTheWaitAfterIt() throws InterruptedException {
        // With this seed segment 0's job succeeds and segment 1's fails fatally: the client gets one segment, then
        // waits for the next until the request fails.
        RunResult result = run(2, 0.5, SEED_DELIVERS_ONE);
        TenantRecord r = result.tenants().getFirst().record();
        assertFalse(result.allCompleted(), "the request fails");
        assertEquals(1, r.delivered(), "the seed still delivers segment 0 first");
        // Its reads take no simulated time but a few microseconds of wall time; a millisecond covers them. Counted
        // up to the delivery only, the stall is a job's run (20 ms wall) short of this.
        assertTrue(r.clientIdleNanos() >= failedAt(r) - 1_000_000, "the client waited the whole time but for its"
                + " instant reads"
                + " (at least " + failedAt(r) + " ns), was " + r.clientIdleNanos() + " ns (segment 0 at "
                + r.deliveredAt()[0] + " ns)");
    }

    private static final long SEED_DELIVERS_ONE = 2;
}
