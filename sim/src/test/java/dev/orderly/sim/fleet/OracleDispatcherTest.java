package dev.orderly.sim.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class OracleDispatcherTest {

    /** One instance with one slot; jobs run an hour, so only close() frees the slot. */
    private static SimulatedFleet oneSlot() {
        return new SimulatedFleet(new FleetConfig(1, 1, Duration.ofHours(1), 0, FaultRates.NONE, 1,
                TimeScale.REAL_TIME));
    }

    private record Grant(String tenant, JobKey key, Tier2Call call) {
    }

    private static Thread dialer(Tier2Client client, String tenant, long segment, List<Grant> grants,
                                 AtomicReference<Throwable> thrown) {
        return Thread.ofVirtual().start(() -> {
            try {
                JobKey key = new JobKey(segment, 0);
                grants.add(new Grant(tenant, key, client.dial(new Job(tenant, key, 1))));
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
    }

    @Test
    void everyFreedSlotGoesToTheLowestWaitingUnitOfTheTenantWhoseTurnItIs() throws Exception {
        SimulatedFleet fleet = oneSlot();
        OracleDispatcher oracle = new OracleDispatcher(fleet);
        Tier2Client a = oracle.tenant(fleet.tenant("a", 1));
        Tier2Client b = oracle.tenant(fleet.tenant("b", 1));
        List<Grant> grants = new CopyOnWriteArrayList<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        dialer(a, "a", 0, grants, thrown);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> grants.size() == 1);
        // a's first job holds the only slot; now a (5, 2) and b (3) wait. b's turn is next (a was just served).
        dialer(a, "a", 5, grants, thrown);
        dialer(a, "a", 2, grants, thrown);
        dialer(b, "b", 3, grants, thrown);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> oracle.waiting() == 3);
        for (int served = 1; served < 4; served++) {
            assertEquals(served, grants.size(), "nothing is granted while the slot is held");
            grants.getLast().call().close();
            int expected = served + 1;
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> grants.size() == expected);
        }
        assertEquals(List.of("a:0", "b:3", "a:2", "a:5"),
                grants.stream().map(g -> g.tenant() + ":" + g.key().segment()).toList());
        assertEquals(0, fleet.stats().refused(), "the dispatcher never dials a full instance");
        assertEquals(null, thrown.get());
        grants.getLast().call().close();
        assertEquals(0, fleet.stats().busy());
    }

    /** On one slot: segment 0's dial is granted, segment 1's waits and is interrupted; the grant is still held. */
    private record CancelledWait(SimulatedFleet fleet, OracleDispatcher oracle, Grant granted, Thread waiting,
                                 Throwable thrown) {
    }

    private static CancelledWait cancelAWaitingDial() throws InterruptedException {
        SimulatedFleet fleet = oneSlot();
        OracleDispatcher oracle = new OracleDispatcher(fleet);
        Tier2Client a = oracle.tenant(fleet.tenant("a", 1));
        List<Grant> grants = new CopyOnWriteArrayList<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        dialer(a, "a", 0, grants, thrown);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> grants.size() == 1);
        Thread waiting = dialer(a, "a", 1, grants, thrown);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> oracle.waiting() == 1);
        waiting.interrupt();
        waiting.join(Duration.ofSeconds(5));
        return new CancelledWait(fleet, oracle, grants.getFirst(), waiting, thrown.get());
    }

    @Test
    void anInterruptedWaitLeavesNoWaiterAndNoSlotBehind() throws Exception {
        CancelledWait c = cancelAWaitingDial();
        assertInstanceOf(InterruptedException.class, c.thrown());
        assertEquals(0, c.oracle().waiting());
        c.granted().call().close();
        assertEquals(0, c.fleet().stats().busy(), "the slot is free again and nobody took it");
        assertTrue(!c.waiting().isAlive());
    }

    @Test
    void aDialCancelledWhileItWaitsAtTheDispatcherIsNotCountedByTheFleet() throws Exception {
        // The bug: the engine counts every dial, the fleet counted only the granted ones, so the run's totals differed.
        CancelledWait c = cancelAWaitingDial();
        assertInstanceOf(InterruptedException.class, c.thrown());
        FleetStats stats = c.fleet().stats();
        assertEquals(2, stats.dials(), "the granted dial and the one cancelled while it waited");
        assertEquals(1, stats.admitted());
        assertEquals(0, stats.refused(), "a cancelled wait is no refusal");
        c.granted().call().close();
    }
}
