package dev.orderly.sim.report;

import dev.orderly.api.JobKey;
import dev.orderly.sim.fleet.FleetStats;
import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.run.JobTrace;
import dev.orderly.sim.run.RunResult;
import dev.orderly.sim.run.RunSpec;
import dev.orderly.sim.run.Strategy;
import dev.orderly.sim.run.TenantRecord;
import dev.orderly.sim.run.TenantResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Hand-made records with known numbers, for the report's tests. Times are whole seconds at time scale 1. */
final class Records {

    static final long S = 1_000_000_000L;

    private Records() {
    }

    /**
     * A tenant whose segment {@code s} is ready at {@code ready[s]} seconds and delivered at {@code delivered[s]}
     * seconds, with one queued-dialing-running job per segment.
     */
    static TenantRecord tenant(String name, Strategy strategy, long[] ready, long[] delivered, long idle, long dials,
                               long refusals, long failures) {
        long[] readyAt = new long[ready.length];
        long[] deliveredAt = new long[delivered.length];
        List<JobTrace> jobs = new ArrayList<>();
        for (int s = 0; s < ready.length; s++) {
            readyAt[s] = ready[s] * S;
            deliveredAt[s] = delivered[s] * S;
            jobs.add(new JobTrace(new JobKey(s, 0), 0, S / 2, ready[s] * S - S / 2, ready[s] * S,
                    JobTrace.Ending.DONE, 2));
        }
        return new TenantRecord(name, strategy, jobs, readyAt, deliveredAt, ready.length, idle * S, dials, refusals,
                dials - refusals, failures, 0, 0, 0);
    }

    static RunResult run(RunSpec spec, long wallSeconds, TenantRecord... tenants) {
        List<TenantResult> results = new ArrayList<>();
        for (TenantRecord t : tenants) {
            results.add(new TenantResult(t, Optional.empty(), Optional.empty()));
        }
        FleetStats stats = new FleetStats(0, 0, 0, 0, 0, 0, 0, new long[5]);
        return new RunResult(spec, results, stats, wallSeconds * S, TimeScale.REAL_TIME);
    }
}
