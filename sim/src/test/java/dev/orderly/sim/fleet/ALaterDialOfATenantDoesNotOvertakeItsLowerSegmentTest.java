package dev.orderly.sim.fleet;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.orderly.api.JobKey;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simulated fleet's room, as a tier2's: a tenant's dial for segment 10, made while its client waited for segment 5
 * (rank 5), still waits when the tenant dials segment 12 with its client on segment 9 (rank 3). The freed slot went to
 * segment 12, the lower rank, though the client reads segment 10 first.
 */
@Timeout(30)
class ALaterDialOfATenantDoesNotOvertakeItsLowerSegmentTest {

    private static final Duration LONG_WAIT = Duration.ofMinutes(1);

    @Test
    void theFreedSlotGoesToTheTenantsLowerSegment() throws Exception {
        SimulatedFleet fleet = new SimulatedFleet(new FleetConfig(1, 1, Duration.ofSeconds(2), 0.4, FaultRates.NONE,
                7, TimeScale.REAL_TIME), 4);
        SimulatedFleet.Admitted holder = fleet.tryAdmit(0, "holder", new JobKey(0, 0));
        assertFalse(holder.refused());
        CompletableFuture<SimulatedFleet.Admitted> ten = waiting(fleet, new JobKey(10, 0), 5);
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.waiting() == 1);
        CompletableFuture<SimulatedFleet.Admitted> twelve = waiting(fleet, new JobKey(12, 0), 3);
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.waiting() == 2);

        fleet.release(0, holder.slot(), null);
        SimulatedFleet.Admitted first = ten.get(10, TimeUnit.SECONDS);
        assertEquals(0, first.instance(), "segment 10 has the freed slot");
        assertFalse(twelve.isDone(), "segment 12 waits on");
        fleet.release(0, first.slot(), null);
        assertEquals(0, twelve.get(10, TimeUnit.SECONDS).instance());
    }

    /** One dial of tenant "a" waiting in instance 0's room on a thread of its own. */
    private static CompletableFuture<SimulatedFleet.Admitted> waiting(SimulatedFleet fleet, JobKey key, long rank) {
        CompletableFuture<SimulatedFleet.Admitted> f = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                f.complete(fleet.admitOrWait(new int[] {0}, "a", key, rank, LONG_WAIT));
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }
}
