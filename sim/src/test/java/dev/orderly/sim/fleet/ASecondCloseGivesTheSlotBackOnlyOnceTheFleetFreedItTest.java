package dev.orderly.sim.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two closes of one granted call at once (the job's own, as its await ends, and the engine's, as the request stops or
 * a higher stage covers the unit): the first took the call's "released" flag and went to free the fleet's slot; the
 * second found the flag taken, returned from the call's close at once, and gave the slot back to the dispatcher,
 * which granted it to a waiting job and dialed the fleet before the fleet had freed it. The fleet refused the
 * dispatcher ("instance 0 refused the dispatcher: something else dialed its fleet"): a tenant's request failed, or,
 * thrown in a close the engine ignores, the fleet counted a dial no tenant made ({@code SimulationRunTest}: "the fleet
 * saw every dial the tenants sent ==> expected: <185> but was: <184>"). A close now returns only once the slot is
 * free in the fleet.
 */
@Timeout(30)
class ASecondCloseGivesTheSlotBackOnlyOnceTheFleetFreedItTest {

    @Test
    void aSecondCloseWaitsWhileTheFirstIsFreeingTheSlot() throws Exception {
        SimulatedFleet fleet = new SimulatedFleet(new FleetConfig(1, 1, Duration.ofHours(1), 0, FaultRates.NONE, 1,
                TimeScale.REAL_TIME));
        OracleDispatcher oracle = new OracleDispatcher(fleet);
        Tier2Client a = oracle.tenant(fleet.tenant("a", 1));
        Tier2Call granted = a.dial(new Job("a", new JobKey(0, 0), 1));
        AtomicReference<Tier2Call> second = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread waiting = Thread.ofVirtual().start(() -> {
            try {
                second.set(a.dial(new Job("a", new JobKey(1, 0), 1)));
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> oracle.waiting() == 1);

        ReentrantLock fleetLock = fleetLock(fleet);
        Thread first;
        Thread other;
        fleetLock.lock();
        try {
            // The first close takes the call's release and waits for the fleet's lock, inside the release.
            first = Thread.ofPlatform().start(granted::close);
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> fleetLock.hasQueuedThread(first));
            other = Thread.ofPlatform().start(() -> {
                try {
                    granted.close();
                } catch (Throwable t) {
                    thrown.compareAndSet(null, t);
                }
            });
            // Before the fix the second close gave the slot to the dispatcher, whose grant dialed the fleet in
            // microseconds; 300 ms is orders of magnitude more.
            Awaitility.await("the second close kept off the fleet while the first frees the slot")
                    .during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                    .until(() -> !fleetLock.hasQueuedThread(other));
            assertFalse(fleetLock.hasQueuedThread(other),
                    "the second close went on to the dispatcher while the first was still freeing the slot");
        } finally {
            fleetLock.unlock();
        }
        first.join(Duration.ofSeconds(5));
        other.join(Duration.ofSeconds(5));
        waiting.join(Duration.ofSeconds(5));
        assertNull(thrown.get(), () -> "the dispatcher was refused: " + thrown.get());
        assertEquals(0, fleet.stats().refused(), "the dispatcher never dials a full instance");
        assertEquals(1, fleet.stats().busy(), "the waiting job got the slot");
        second.get().close();
        assertEquals(0, fleet.stats().busy());
    }

    private static ReentrantLock fleetLock(SimulatedFleet fleet) throws ReflectiveOperationException {
        Field lock = SimulatedFleet.class.getDeclaredField("lock");
        lock.setAccessible(true);
        return (ReentrantLock) lock.get(fleet);
    }
}
