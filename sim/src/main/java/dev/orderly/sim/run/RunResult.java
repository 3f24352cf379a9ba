package dev.orderly.sim.run;

import dev.orderly.sim.fleet.FleetStats;
import dev.orderly.sim.fleet.TimeScale;
import java.util.List;

/**
 * What one run did.
 *
 * @param spec the run
 * @param tenants each tenant's outcome, in tenant order
 * @param fleet what the fleet did
 * @param wallNanos wall-clock time of the run
 * @param timeScale the run's time scale, to turn wall-clock nanoseconds into simulated seconds
 * @param clock how late the wall clock's timers woke during the run
 */
public record RunResult(RunSpec spec, List<TenantResult> tenants, FleetStats fleet, long wallNanos,
                        TimeScale timeScale, ClockLateness clock) {

    /** A result with no clock measurement. */
    public RunResult(RunSpec spec, List<TenantResult> tenants, FleetStats fleet, long wallNanos, TimeScale timeScale) {
        this(spec, tenants, fleet, wallNanos, timeScale, ClockLateness.NONE);
    }

    /** Creates the result, copying the tenant list. */
    public RunResult {
        tenants = List.copyOf(tenants);
    }

    /** True when every tenant's request delivered every segment. */
    public boolean allCompleted() {
        return tenants.stream().allMatch(t -> t.failure().isEmpty());
    }
}
