package dev.orderly.sim.fleet;

import java.time.Duration;

/**
 * Where a run's tenants send their jobs: the in-memory {@link SimulatedFleet}, or real tier2 processes reached over
 * gRPC ({@code ./orderly fleet}). A run asks it for one {@link TenantDoor} per tenant and for its counts.
 */
public interface TenantFleet {

    /**
     * The door of one tenant's request.
     *
     * @param name the tenant's name, also its request id and part of every output it writes
     * @param stages the request's stages; the last one writes the output the client reads
     */
    TenantDoor tenant(String name, int stages);

    /**
     * The door of one tenant's request whose dials wait in the instances' waiting rooms, up to {@code maxWait}
     * (simulated time), at {@code waitAt} instances at once where the fleet can.
     *
     * @throws IllegalArgumentException if this fleet has no waiting rooms (the default)
     */
    default TenantDoor waitingTenant(String name, int stages, Duration maxWait, int waitAt) {
        throw new IllegalArgumentException("this fleet has no waiting room for " + name + "'s dials to wait in");
    }

    /** What the fleet has done so far. */
    FleetStats stats();
}
