package dev.orderly.testing;

import static dev.orderly.testing.Tier2Event.Type.ADMITTED;
import static dev.orderly.testing.Tier2Event.Type.CLOSED;
import static dev.orderly.testing.Tier2Event.Type.DIALED;
import static dev.orderly.testing.Tier2Event.Type.INTERRUPTED;
import static dev.orderly.testing.Tier2Event.Type.REFUSED;
import static dev.orderly.testing.Tier2Event.Type.SUCCEEDED;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class InMemoryFleetTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 100, 2, 8);

    private static Job job(long segment, int stage) {
        return new Job("r-1", new JobKey(segment, stage), 1);
    }

    @Test
    void aFullInstanceRefusesAtOnceAndAClosedCallFreesItsSlot() throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().instances(1).slotsPerInstance(2).build();
        InMemoryFleet.Tenant tenant = fleet.tenant(PLAN);
        Tier2Call first = tenant.client().dial(job(0, 1));
        Tier2Call second = tenant.client().dial(job(1, 1));
        Tier2Exception refused = assertThrows(Tier2Exception.class, () -> tenant.client().dial(job(2, 1)));
        assertEquals(Tier2Exception.Kind.REFUSED, refused.kind());
        assertEquals("instance 0 is at its limit of 2", refused.getMessage());
        assertEquals(2, fleet.busySlots());
        first.await();
        first.close();
        first.close();
        assertEquals(1, fleet.busySlots(), "a second close frees nothing more");
        tenant.client().dial(job(2, 1)).close();
        second.close();
        assertEquals(0, fleet.busySlots());
        assertEquals(2, fleet.peakBusySlots());
        assertEquals(List.of(DIALED, REFUSED, DIALED, ADMITTED, CLOSED), fleet.log().typesOf(new JobKey(2, 1)));
    }

    @Test
    void aLastStageJobWritesItsOutputToItsOwnTenantsStoreOnly() throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().instances(2).slotsPerInstance(2).build();
        InMemoryFleet.Tenant a = fleet.tenant(PLAN);
        InMemoryFleet.Tenant b = fleet.tenant(PLAN);
        try (Tier2Call call = a.client().dial(job(7, 1))) {
            call.await();
        }
        try (Tier2Call call = a.client().dial(job(8, 0))) {
            call.await();
        }
        assertArrayEquals(ScriptedTier2.outputOf(7), a.outputs().read(7).orElseThrow());
        assertEquals(Optional.empty(), a.outputs().read(8), "stage 0 is not the last stage");
        assertEquals(Optional.empty(), b.outputs().read(7));
        assertEquals(List.of(DIALED, ADMITTED, SUCCEEDED, CLOSED), fleet.log().typesOf(new JobKey(7, 1)));
    }

    @Test
    void dialsSpreadOverTheInstancesAndTheSameSeedRepeatsTheRun() throws Exception {
        List<Integer> first = instancesOf(42);
        assertEquals(first, instancesOf(42));
        assertEquals(Set.of(0, 1, 2), new HashSet<>(first), "30 dials reach each of 3 instances");
    }

    private static List<Integer> instancesOf(long seed) throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().instances(3).slotsPerInstance(1).seed(seed).build();
        for (int i = 0; i < 30; i++) {
            fleet.tenant(PLAN).client().dial(job(i, 1)).close();
        }
        return fleet.log().events().stream().filter(e -> e.type() == ADMITTED).map(Tier2Event::instance).toList();
    }

    @Test
    void manyThreadsNeverHoldMoreSlotsThanTheFleetHas() throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().instances(2).slotsPerInstance(3)
                .jobTime(Duration.ofMillis(1)).build();
        InMemoryFleet.Tenant tenant = fleet.tenant(PLAN);
        AtomicInteger done = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            long segment = t;
            threads.add(Thread.ofVirtual().start(() -> {
                while (true) {
                    try (Tier2Call call = tenant.client().dial(job(segment, 1))) {
                        call.await();
                        done.incrementAndGet();
                        return;
                    } catch (Tier2Exception e) {
                        Thread.yield();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }));
        }
        for (Thread t : threads) {
            assertTrue(t.join(Duration.ofSeconds(8)));
        }
        assertEquals(16, done.get());
        assertTrue(fleet.peakBusySlots() <= fleet.capacity(), "peak " + fleet.peakBusySlots());
        assertEquals(0, fleet.busySlots());
        assertEquals(fleet.log().count(ADMITTED), fleet.log().count(CLOSED));
    }

    @Test
    void aRunningJobEndsPromptlyWhenItsThreadIsInterrupted() throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().jobTime(Duration.ofHours(1)).build();
        InMemoryFleet.Tenant tenant = fleet.tenant(PLAN);
        Thread job = Thread.ofVirtual().start(() -> {
            try (Tier2Call call = tenant.client().dial(job(0, 1))) {
                call.await();
            } catch (Tier2Exception | InterruptedException e) {
                // expected: interrupted
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> fleet.busySlots() == 1);
        job.interrupt();
        assertTrue(job.join(Duration.ofSeconds(5)));
        assertEquals(List.of(DIALED, ADMITTED, INTERRUPTED, CLOSED), fleet.log().typesOf(new JobKey(0, 1)));
        assertEquals(0, fleet.busySlots());
    }

    @Test
    void badSizesAreRejectedNamingTheField() {
        assertEquals("instances must be >= 1, was 0", assertThrows(IllegalArgumentException.class,
                () -> InMemoryFleet.builder().instances(0)).getMessage());
        assertEquals("slotsPerInstance must be >= 1, was -2", assertThrows(IllegalArgumentException.class,
                () -> InMemoryFleet.builder().slotsPerInstance(-2)).getMessage());
        assertEquals("jobTime must be >= 0, was PT-1S", assertThrows(IllegalArgumentException.class,
                () -> InMemoryFleet.builder().jobTime(Duration.ofSeconds(-1))).getMessage());
    }

    @Test
    void withoutALogTheCountersStillCountAndASinkGetsTheOutputs() throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().slotsPerInstance(1).keepLog(false).build();
        Map<Long, byte[]> sink = new ConcurrentHashMap<>();
        InMemoryFleet.Tenant tenant = fleet.tenant(PLAN, sink::put);
        try (Tier2Call call = tenant.client().dial(job(4, 1))) {
            assertThrows(Tier2Exception.class, () -> tenant.client().dial(job(5, 1)));
            call.await();
        }
        assertEquals(1, fleet.admissions());
        assertEquals(1, fleet.refusals());
        assertEquals(0, fleet.busySlots());
        assertEquals(List.of(), fleet.log().events(), "keepLog(false) logs nothing");
        assertArrayEquals(ScriptedTier2.outputOf(4), sink.get(4L));
        assertTrue(tenant.outputs().read(4).isEmpty(), "the output went to the sink only");
    }
}
