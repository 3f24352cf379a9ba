package dev.orderly.sim.run;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import dev.orderly.sim.fleet.FleetStats;
import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.report.StrategyMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A failed request's client stall ran to the moment {@code Engine.run} had returned (the recorder's
 * {@code requestEnded}), its total to the end of the job that failed it: the engine's teardown between the two (the
 * scope's cancellation, the summary line, the listener's end) counted as the client's wait and not as the request's
 * time, so the table said a client stalled longer than its whole request took. With {@code --time-scale=100} on two
 * cores, one fatal job: "client stall 7.60s, total 4.88s". Both now end where the request's total ends.
 */
@Timeout(30)
class AFailedRequestsClientStallEndsWhenItsTotalDoesTest {

    @Test
    void aClientThatWaitedForAFailedRequestStalledNoLongerThanTheRequestTook() {
        long origin = System.nanoTime();
        TenantRecorder recorder = new TenantRecorder("tenant-1", Strategy.ORDERED, 2, 1, origin);
        Job job = new Job("tenant-1", new JobKey(0, 0), 1, 0);
        recorder.onDial(job);
        recorder.onAdmitted(job);
        recorder.onFailed(job, Tier2Exception.fatal("bad module", null));
        long failedAt = System.nanoTime();
        // The engine's teardown after the failing job: some time passes before run returns and the request ends.
        await().pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(5))
                .until(() -> System.nanoTime() - failedAt > 5_000_000);
        recorder.requestEnded(false);
        long wall = System.nanoTime() - origin;

        TenantRecord record = recorder.snapshot(wall);
        RunResult run = new RunResult(RunSpec.all(Strategy.ORDERED, 1),
                List.of(new TenantResult(record, Optional.empty(), Optional.of("segment 0 stage 0 failed fatally"))),
                new FleetStats(1, 0, 0, 1, 0, 1, 0, new long[5]), wall, TimeScale.REAL_TIME);
        StrategyMetrics row = StrategyMetrics.of("ordered", run, run.tenants());

        assertEquals(row.total(), row.stall(), 1e-9, "the client waited from the start until the request failed,"
                + " which is its total: stall " + row.stall() + " s, total " + row.total() + " s");
    }
}
