package dev.orderly.sim.fleet;

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

    /** What the fleet has done so far. */
    FleetStats stats();
}
