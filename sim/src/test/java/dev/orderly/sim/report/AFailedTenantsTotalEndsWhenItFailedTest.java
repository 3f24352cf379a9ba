package dev.orderly.sim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.sim.run.JobTrace;
import dev.orderly.sim.run.RunResult;
import dev.orderly.sim.run.RunSpec;
import dev.orderly.sim.run.Strategy;
import dev.orderly.sim.run.TenantRecord;
import dev.orderly.sim.run.TenantResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The total of a row counted a failed request to the end of the whole run, not to its failure: in a mixed run whose
 * ordered tenant failed after 5 s while the unordered tenants ran for 80 s, the row "mixed: 1 ordered" said total
 * 80.0s and the note said the ordered tenant "failed after 80.0s". StrategyMetrics' own definition is "until the
 * group's last segment was delivered (or its last request ended)": a failed request ends when it fails.
 */
@Timeout(5)
class AFailedTenantsTotalEndsWhenItFailedTest {

    private static final long S = Records.S;

    @Test
    void theOrderedTenantOfAMixedRunFailedAfterFiveSecondsNotAfterTheRun() {
        // tenant-1 (ordered): its segment-0 job got in at 1 s and failed fatally at 5 s; a second job, still dialing,
        // was cancelled with the request at 5 s. Nothing delivered.
        List<JobTrace> jobs = List.of(
                new JobTrace(new JobKey(0, 0), 0, S / 2, S, 5 * S, JobTrace.Ending.FAILED, 2),
                new JobTrace(new JobKey(1, 0), 0, S, -1, 5 * S, JobTrace.Ending.CANCELLED, 3));
        TenantRecord failedTenant = new TenantRecord("tenant-1", Strategy.ORDERED, jobs, new long[] {-1, -1},
                new long[] {-1, -1}, 0, 5 * S, 5, 4, 1, 0, 0, 1, 0);
        // tenant-2 (unordered): delivers both segments at 80 s, the end of the run.
        TenantRecord slowTenant = Records.tenant("tenant-2", Strategy.UNORDERED, new long[] {70, 60},
                new long[] {80, 80}, 70, 300, 290, 0);
        RunResult ok = Records.run(RunSpec.mixed(2), 80, failedTenant, slowTenant);
        List<TenantResult> tenants = new ArrayList<>(ok.tenants());
        tenants.set(0, new TenantResult(failedTenant, Optional.empty(),
                Optional.of("segment 0 stage 0 failed on attempt 1: fatal")));
        RunResult run = new RunResult(ok.spec(), tenants, ok.fleet(), ok.wallNanos(), ok.timeScale());

        Report report = new Report(List.of(run));
        StrategyMetrics ordered = report.rows().stream().filter(m -> m.label().equals("mixed: 1 ordered"))
                .findFirst().orElseThrow();
        assertEquals(5.0, ordered.total(), 1e-9, "the ordered tenant's request ended when it failed");
        assertEquals(1.0, ordered.dialsPerSecond(), 1e-9, "5 dials over its 5 s");
        String note = report.notes().getFirst();
        assertTrue(note.contains("failed after 5.00s"), note);
        assertFalse(note.contains("failed after 80.0s"), note);
    }

    @Test
    void aRunWhoseEveryTenantFailedStillEndsAtItsLastFailure() {
        List<JobTrace> jobs = List.of(new JobTrace(new JobKey(0, 0), 0, S / 2, S, 3 * S, JobTrace.Ending.FAILED, 1));
        TenantRecord t = new TenantRecord("tenant-1", Strategy.ORDERED, jobs, new long[] {-1}, new long[] {-1}, 0,
                3 * S, 1, 0, 1, 0, 0, 1, 0);
        RunResult run = new RunResult(RunSpec.all(Strategy.ORDERED, 1),
                List.of(new TenantResult(t, Optional.empty(), Optional.of("failed"))),
                Records.run(RunSpec.all(Strategy.ORDERED, 1), 3, t).fleet(), 3 * S + S / 10,
                dev.orderly.sim.fleet.TimeScale.REAL_TIME);
        StrategyMetrics m = new Report(List.of(run)).rows().getFirst();
        assertEquals(3.0, m.total(), 1e-9);
    }
}
