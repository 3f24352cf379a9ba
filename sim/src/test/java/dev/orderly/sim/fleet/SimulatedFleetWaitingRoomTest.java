package dev.orderly.sim.fleet;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simulated fleet's waiting room, with real threads: a waiting dial gets the next freed slot of its instance, a
 * wait that ends is a refusal, a cancelled waiter leaves at once, and under racing frees and cancels no slot is lost
 * or held twice.
 */
@Timeout(30)
class SimulatedFleetWaitingRoomTest {

    private static final Duration LONG_WAIT = Duration.ofMinutes(1);

    private static SimulatedFleet fleet(int instances, int slots, int seats) {
        return new SimulatedFleet(new FleetConfig(instances, slots, Duration.ofSeconds(2), 0.4, FaultRates.NONE, 7,
                TimeScale.REAL_TIME), seats);
    }

    private static Job job(String tenant, long segment, long reading) {
        return new Job(tenant, new JobKey(segment, 0), 1, reading);
    }

    /** Dials on a virtual thread; the future holds the call or what the dial threw. */
    private static CompletableFuture<SimulatedCall> dialInBackground(SimulatedTier2 tier2, Job job,
            List<Thread> threads) {
        CompletableFuture<SimulatedCall> f = new CompletableFuture<>();
        threads.add(Thread.ofVirtual().start(() -> {
            try {
                f.complete(tier2.dial(job));
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        }));
        return f;
    }

    private static Throwable cause(CompletableFuture<?> f) {
        try {
            f.get(10, TimeUnit.SECONDS);
            throw new AssertionError("the dial returned a call");
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aWaitingDialTakesTheSlotTheMomentItIsFreedAndAnOldClientIsStillRefusedAtOnce() throws Exception {
        SimulatedFleet fleet = fleet(1, 1, 4);
        SimulatedCall holder = fleet.tenant("holder", 1).dial(job("holder", 0, 0));
        List<Thread> threads = new ArrayList<>();
        CompletableFuture<SimulatedCall> waiting = dialInBackground(
                fleet.waitingTenant("w", 1, LONG_WAIT, 1), job("w", 3, 0), threads);
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.waiting() == 1);

        Tier2Exception refused = assertThrows(Tier2Exception.class,
                () -> fleet.tenant("old", 1).dial(job("old", 0, 0)));
        assertEquals(Tier2Exception.Kind.REFUSED, refused.kind());
        assertFalse(waiting.isDone(), "a waiter holds no slot and waits on while the instance is full");

        holder.close();
        SimulatedCall call = waiting.get(10, TimeUnit.SECONDS);
        assertEquals(0, call.instance());
        assertEquals(0, fleet.waiting());
        assertEquals(1, fleet.stats().busy());
        call.close();
        assertEquals(0, fleet.stats().busy());
    }

    @Test
    void aWaiterWhoseWaitEndsIsRefusedAndHoldsNothing() throws Exception {
        SimulatedFleet fleet = fleet(1, 1, 4);
        SimulatedCall holder = fleet.tenant("holder", 1).dial(job("holder", 0, 0));
        SimulatedTier2 impatient = fleet.waitingTenant("w", 1, Duration.ofMillis(20), 1);
        Tier2Exception e = assertThrows(Tier2Exception.class, () -> impatient.dial(job("w", 1, 0)));
        assertEquals(Tier2Exception.Kind.REFUSED, e.kind());
        assertTrue(e.getMessage().contains("within its admission wait of 20 ms"), e.getMessage());
        assertEquals(0, fleet.waiting());
        assertEquals(1, fleet.stats().busy());
        holder.close();
        assertEquals(0, fleet.stats().busy(), "the freed slot went to nobody: the waiter had left");
    }

    @Test
    void aCancelledWaiterLeavesTheRoomAtOnceAndTheNextFreedSlotGoesToTheNextWaiter() throws Exception {
        SimulatedFleet fleet = fleet(1, 1, 4);
        SimulatedCall holder = fleet.tenant("holder", 1).dial(job("holder", 0, 0));
        List<Thread> threads = new ArrayList<>();
        SimulatedTier2 w = fleet.waitingTenant("w", 1, LONG_WAIT, 1);
        CompletableFuture<SimulatedCall> first = dialInBackground(w, job("w", 1, 0), threads);
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.waiting() == 1);
        CompletableFuture<SimulatedCall> second = dialInBackground(w, job("w", 2, 0), threads);
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.waiting() == 2);

        threads.getFirst().interrupt();
        assertInstanceOf(InterruptedException.class, cause(first));
        assertEquals(1, fleet.waiting());

        holder.close();
        SimulatedCall call = second.get(10, TimeUnit.SECONDS);
        assertEquals(1, fleet.stats().busy());
        call.close();
    }

    @Test
    void aDialWaitingAtTwoInstancesTakesTheFirstFreedSlotAndLeavesTheOtherRoom() throws Exception {
        SimulatedFleet fleet = fleet(2, 1, 4);
        SimulatedTier2 holders = fleet.tenant("holder", 1);
        List<SimulatedCall> held = new ArrayList<>();
        for (int s = 0; held.size() < 2; s++) {
            try {
                held.add(holders.dial(new Job("holder", new JobKey(s, 0), 1)));
            } catch (Tier2Exception e) {
                assertEquals(Tier2Exception.Kind.REFUSED, e.kind());
            }
        }
        List<Thread> threads = new ArrayList<>();
        CompletableFuture<SimulatedCall> waiting = dialInBackground(
                fleet.waitingTenant("w", 1, LONG_WAIT, 2), job("w", 0, 0), threads);
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.waiting() == 2);

        SimulatedCall freed = held.stream().filter(c -> c.instance() == 1).findFirst().orElseThrow();
        freed.close();
        SimulatedCall call = waiting.get(10, TimeUnit.SECONDS);
        assertEquals(1, call.instance());
        assertEquals(0, fleet.waiting(), "admitted at one instance, it left the other's room");
        assertEquals(2, fleet.stats().busy());
    }

    @Test
    void racingFreesAndCancelsNeitherLoseNorDoubleASlot() throws Exception {
        int instances = 2;
        int slots = 2;
        SimulatedFleet fleet = fleet(instances, slots, 3);
        Random random = new Random(11);
        ConcurrentLinkedQueue<SimulatedCall> admitted = new ConcurrentLinkedQueue<>();
        List<Thread> dialers = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            SimulatedTier2 tier2 = fleet.waitingTenant("t" + (i % 3), 1, LONG_WAIT, 1 + (i % 2));
            Job job = job("t" + (i % 3), i, 0);
            dialers.add(Thread.ofVirtual().start(() -> {
                try {
                    admitted.add(tier2.dial(job));
                } catch (Tier2Exception | InterruptedException e) {
                    // refused (a better-ranked dial took its seat) or cancelled: holds nothing
                }
            }));
        }
        // Frees and cancels race the dials and each other.
        for (int round = 0; round < 200; round++) {
            SimulatedCall c = admitted.poll();
            if (c != null) {
                c.close();
            }
            if (random.nextInt(3) == 0) {
                dialers.get(random.nextInt(dialers.size())).interrupt();
            }
            assertTrue(fleet.stats().busy() <= instances * slots, "never past the fleet's slots");
            Thread.yield();
        }
        dialers.forEach(Thread::interrupt);
        for (Thread t : dialers) {
            assertTrue(t.join(Duration.ofSeconds(10)), "a dialer ended");
        }
        assertEquals(0, fleet.waiting(), "no waiter is left in a room");
        assertEquals(admitted.size(), fleet.stats().busy(), "every slot in use is held by a call someone has");
        admitted.forEach(SimulatedCall::close);
        assertEquals(0, fleet.stats().busy(), "every slot came back exactly once");
        assertTrue(fleet.stats().peakBusy() <= instances * slots);
    }
}
