package dev.orderly.sim.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One run of a scenario: a name and the strategy of each tenant, all sharing one fleet.
 *
 * @param name how the run is called in progress lines and reports
 * @param tenantStrategies the strategy of tenant {@code i + 1}
 */
public record RunSpec(String name, List<Strategy> tenantStrategies) {

    /**
     * @throws IllegalArgumentException if there is no tenant
     */
    public RunSpec {
        Objects.requireNonNull(name, "name");
        tenantStrategies = List.copyOf(tenantStrategies);
        if (tenantStrategies.isEmpty()) {
            throw new IllegalArgumentException("a run needs at least one tenant");
        }
    }

    /** Every tenant uses {@code strategy}; the run is named after it. */
    public static RunSpec all(Strategy strategy, int tenants) {
        return new RunSpec(strategy.label(), Collections.nCopies(tenants, strategy));
    }

    /** Tenant 1 is ordered, every other tenant unordered: what one team adopting ordered launch alone would see. */
    public static RunSpec mixed(int tenants) {
        return mixed(tenants, Strategy.ORDERED);
    }

    /**
     * Tenant 1 uses {@code first} (ordered launch, with or without the waiting room), every other tenant the unordered
     * baseline.
     *
     * @throws IllegalArgumentException with fewer than 2 tenants, or if {@code first} is not an ordered strategy
     */
    public static RunSpec mixed(int tenants, Strategy first) {
        if (tenants < 2) {
            throw new IllegalArgumentException("a mixed run needs at least 2 tenants, was " + tenants);
        }
        if (!first.ordered()) {
            throw new IllegalArgumentException("the first tenant of a mixed run uses ordered launch, not "
                    + first.label());
        }
        List<Strategy> strategies = new ArrayList<>(Collections.nCopies(tenants, Strategy.UNORDERED));
        strategies.set(0, first);
        return new RunSpec("mixed", strategies);
    }

    /** The number of tenants. */
    public int tenants() {
        return tenantStrategies.size();
    }

    /** The name of tenant {@code i} (from 0): {@code tenant-1}, {@code tenant-2}, ... */
    public static String tenantName(int i) {
        return "tenant-" + (i + 1);
    }
}
