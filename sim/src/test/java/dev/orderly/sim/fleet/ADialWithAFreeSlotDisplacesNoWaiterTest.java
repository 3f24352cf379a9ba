package dev.orderly.sim.fleet;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.orderly.api.JobKey;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A dial that waits at several instances ({@code --wait-at}) and finds a free slot at one of them is admitted there at
 * once: it must not first take, at a full instance earlier in its list, the seat of a worse-ranked waiter, which was
 * refused for a seat nobody then used (the dial left that room at once) and had to dial again after the refused
 * delay.
 */
@Timeout(30)
class ADialWithAFreeSlotDisplacesNoWaiterTest {

    private static final Duration LONG_WAIT = Duration.ofMinutes(1);

    @Test
    void aDialAdmittedAtOnceElsewhereLeavesTheFullRoomsWaiterInItsSeat() throws Exception {
        // two instances of one slot, one seat in each room
        SimulatedFleet fleet = new SimulatedFleet(new FleetConfig(2, 1, Duration.ofSeconds(2), 0.4, FaultRates.NONE,
                7, TimeScale.REAL_TIME), 1);
        SimulatedFleet.Admitted holder = fleet.tryAdmit(0, "holder", new JobKey(0, 0));
        assertFalse(holder.refused());
        CompletableFuture<SimulatedFleet.Admitted> waiter = new CompletableFuture<>();
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                waiter.complete(fleet.admitOrWait(new int[] {0}, "w", new JobKey(5, 0), 5, LONG_WAIT));
            } catch (Throwable e) {
                waiter.completeExceptionally(e);
            }
        });
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> fleet.waiting() == 1);

            // a better-ranked dial waiting at instance 0 (full, its one seat taken) and instance 1 (a free slot)
            SimulatedFleet.Admitted better = fleet.admitOrWait(new int[] {0, 1}, "x", new JobKey(1, 0), 0, LONG_WAIT);
            assertEquals(1, better.instance(), "admitted at the instance with a free slot");

            assertEquals(1, fleet.waiting(), "the waiter at instance 0 was turned away for a seat nobody used");
            fleet.release(0, holder.slot(), null);
            assertEquals(0, waiter.get(10, java.util.concurrent.TimeUnit.SECONDS).instance(),
                    "the waiter gets instance 0's freed slot");
        } finally {
            t.interrupt();
            t.join(Duration.ofSeconds(10));
        }
    }
}
