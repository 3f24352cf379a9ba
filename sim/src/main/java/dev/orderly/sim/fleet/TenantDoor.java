package dev.orderly.sim.fleet;

import dev.orderly.api.OutputStore;
import dev.orderly.api.Tier2Client;

/** One tenant's way into a {@link TenantFleet}: the client its jobs dial with and the store its outputs land in. */
public interface TenantDoor {

    /** The tenant's name. */
    String name();

    /** The client the tenant's engine dials with. */
    Tier2Client tier2();

    /** Where the tenant's last-stage jobs leave their outputs. */
    OutputStore outputs();

    /** The output a job of this tenant writes for {@code segment}; the client checks what it reads against it. */
    default byte[] expectedOutput(long segment) {
        return SimulatedWork.output(name(), segment);
    }
}
