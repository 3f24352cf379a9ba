package dev.orderly.sim.fleet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class SimulatedFleetTest {

    private static FleetConfig fleet(int instances, int slots, TimeScale scale) {
        return new FleetConfig(instances, slots, Duration.ofSeconds(2), 0.4, FaultRates.NONE, 7, scale);
    }

    private static Job job(long segment, int stage, int attempt) {
        return new Job("t", new JobKey(segment, stage), attempt);
    }

    @Test
    void anInstanceRefusesExactlyWhenAllItsSlotsAreTaken() throws Exception {
        SimulatedFleet fleet = new SimulatedFleet(fleet(1, 3, TimeScale.REAL_TIME));
        SimulatedTier2 tier2 = fleet.tenant("t", 1);
        List<SimulatedCall> held = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            held.add(tier2.dial(job(s, 0, 1)));
        }
        Tier2Exception refused = assertThrows(Tier2Exception.class, () -> tier2.dial(job(3, 0, 1)));
        assertEquals(Tier2Exception.Kind.REFUSED, refused.kind());
        assertTrue(refused.neverRan());
        assertEquals(3, fleet.stats().busy());

        held.removeFirst().close();
        SimulatedCall next = tier2.dial(job(3, 0, 2));
        assertEquals(0, next.instance());
        assertEquals(3, fleet.stats().busy());
        assertEquals(1, fleet.stats().refused());
        assertEquals(4, fleet.stats().admitted());
    }

    @Test
    void aFullFleetRefusesEveryDialUntilASlotIsFreedAndThenAdmitsOnThatInstanceOnly() throws Exception {
        SimulatedFleet fleet = new SimulatedFleet(fleet(4, 2, TimeScale.REAL_TIME));
        SimulatedTier2 tier2 = fleet.tenant("t", 1);
        List<SimulatedCall> held = new ArrayList<>();
        int attempt = 0;
        while (held.size() < 8) {
            try {
                held.add(tier2.dial(job(held.size(), 0, ++attempt)));
            } catch (Tier2Exception e) {
                assertEquals(Tier2Exception.Kind.REFUSED, e.kind());
            }
        }
        for (int i = 0; i < 500; i++) {
            int a = ++attempt;
            assertThrows(Tier2Exception.class, () -> tier2.dial(job(100, 0, a)));
        }
        SimulatedCall freed = held.removeFirst();
        freed.close();
        SimulatedCall admitted = null;
        while (admitted == null) {
            try {
                admitted = tier2.dial(job(101, 0, ++attempt));
            } catch (Tier2Exception e) {
                assertEquals(Tier2Exception.Kind.REFUSED, e.kind());
            }
        }
        assertEquals(freed.instance(), admitted.instance());
        assertEquals(8, fleet.stats().peakBusy());
    }

    @Test
    void theFleetNeverRunsMoreJobsThanItsSlotsUnderConcurrentDials() throws Exception {
        int instances = 4;
        int slots = 3;
        SimulatedFleet fleet = new SimulatedFleet(fleet(instances, slots, TimeScale.REAL_TIME));
        SimulatedTier2 tier2 = fleet.tenant("t", 1);
        AtomicIntegerArray running = new AtomicIntegerArray(instances);
        AtomicInteger worst = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        int jobs = 300;
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(jobs);
        for (int j = 0; j < jobs; j++) {
            long segment = j;
            Thread.ofVirtual().start(() -> {
                try {
                    start.await();
                    for (int attempt = 1; ; attempt++) {
                        SimulatedCall call;
                        try {
                            call = tier2.dial(job(segment, 0, attempt));
                        } catch (Tier2Exception refused) {
                            Thread.sleep(Duration.ofMillis(1)); // a refused job's redial delay
                            continue;
                        }
                        // Counted from admission until just before close gives the slot back, so this count can
                        // only be lower than the fleet's own, never higher.
                        try (call) {
                            int now = running.incrementAndGet(call.instance());
                            worst.accumulateAndGet(now, Math::max);
                            Thread.sleep(Duration.ofMillis(1)); // the job's work
                            running.decrementAndGet(call.instance());
                        }
                        done.incrementAndGet();
                        return;
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                } finally {
                    finished.countDown();
                }
            });
        }
        start.countDown();
        assertTrue(finished.await(15, java.util.concurrent.TimeUnit.SECONDS), "every job ended");
        FleetStats stats = fleet.stats();
        assertEquals(jobs, done.get());
        assertTrue(worst.get() <= slots, "an instance ran " + worst.get() + " jobs at once with " + slots + " slots");
        assertTrue(stats.peakBusy() <= instances * slots, "peak " + stats.peakBusy());
        assertTrue(stats.refused() > 0, "300 jobs on 12 slots must have been refused some of the time");
        assertEquals(0, stats.busy());
        assertEquals(jobs, stats.admitted());
        assertEquals(jobs, stats.cancelled());
        assertEquals(stats.admitted() + stats.refused(), stats.dials());
    }

    @Test
    void aCallClosedBeforeItEndsGivesItsSlotBackOnceAndCountsAsCancelled() throws Exception {
        SimulatedFleet fleet = new SimulatedFleet(fleet(1, 1, TimeScale.REAL_TIME));
        SimulatedTier2 tier2 = fleet.tenant("t", 1);
        SimulatedCall call = tier2.dial(job(0, 0, 1));
        call.close();
        call.close();
        assertEquals(0, fleet.stats().busy());
        assertEquals(1, fleet.stats().cancelled());
        tier2.dial(job(1, 0, 1)).close();
        assertEquals(0, fleet.stats().busy());
    }

    @Test
    void anInterruptedJobEndsPromptlyAndItsCloseFreesTheSlot() throws Exception {
        // A 2 s job in real time: the interrupt must end it long before that.
        SimulatedFleet fleet = new SimulatedFleet(fleet(1, 1, TimeScale.REAL_TIME));
        SimulatedCall call = fleet.tenant("t", 1).dial(job(0, 0, 1));
        CountDownLatch ended = new CountDownLatch(1);
        Thread t = Thread.ofVirtual().start(() -> {
            try (call) {
                call.await();
            } catch (InterruptedException expected) {
                ended.countDown();
            } catch (Tier2Exception e) {
                throw new AssertionError(e);
            }
        });
        t.interrupt();
        assertTrue(ended.await(1, java.util.concurrent.TimeUnit.SECONDS), "await ended on interrupt");
        t.join();
        assertEquals(0, fleet.stats().busy());
    }

    @Test
    void onlyALastStageJobWritesItsSegmentsOutput() throws Exception {
        SimulatedFleet fleet = new SimulatedFleet(fleet(1, 4, new TimeScale(1e6)));
        SimulatedTier2 tier2 = fleet.tenant("alice", 2);
        try (SimulatedCall first = tier2.dial(job(5, 0, 1))) {
            first.await();
        }
        assertEquals(Optional.empty(), tier2.outputs().read(5).map(b -> b));
        try (SimulatedCall last = tier2.dial(job(5, 1, 1))) {
            last.await();
        }
        assertArrayEquals(tier2.expectedOutput(5), tier2.outputs().read(5).orElseThrow());
    }
}
