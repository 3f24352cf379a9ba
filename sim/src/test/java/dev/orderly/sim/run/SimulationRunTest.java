package dev.orderly.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.sim.fleet.Admission;
import dev.orderly.sim.fleet.FaultRates;
import dev.orderly.sim.fleet.FleetConfig;
import dev.orderly.sim.fleet.TimeScale;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class SimulationRunTest {

    /** 3 tenants x 30 segments x 2 stages, 8 workers each, on 2 x 3 slots; 2 s jobs at 100x (20 ms). */
    private static Scenario scenario(FaultRates faults) {
        FleetConfig fleet = new FleetConfig(2, 3, Duration.ofSeconds(2), 0.4, faults, 42, new TimeScale(100));
        // A fleet with a waiting room: only the WAITING strategy's tenants ask to wait in it.
        return new Scenario(30, 2, 8, 3, fleet, Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofMillis(500))
                .withAdmission(Admission.waiting(Duration.ofSeconds(1), 4, 2));
    }

    @Test
    void everyTenantGetsEverySegmentOnceInOrderAndItsCountsAgreeWithTheFleet() throws Exception {
        for (Strategy strategy : Strategy.values()) {
            List<ProgressSample> samples = new CopyOnWriteArrayList<>();
            RunResult result = new SimulationRun(scenario(new FaultRates(0.02, 0.01, 0.02, 0, 0.03)),
                    RunSpec.all(strategy, 3), Duration.ofMillis(50), samples::add).run();
            assertTrue(result.allCompleted(), () -> strategy + ": " + result.tenants());
            long dials = 0;
            long refusals = 0;
            for (TenantResult t : result.tenants()) {
                TenantRecord r = t.record();
                assertEquals(30, r.delivered(), strategy + " " + r.tenant());
                long previous = -1;
                for (int s = 0; s < 30; s++) {
                    assertTrue(r.deliveredAt()[s] >= previous, "segment " + s + " delivered in order");
                    assertTrue(r.readyAt()[s] >= 0 && r.readyAt()[s] <= r.deliveredAt()[s],
                            "segment " + s + " was ready before it was delivered");
                    previous = r.deliveredAt()[s];
                }
                assertEquals(r.dials(), t.result().orElseThrow().dials(), "the listener saw every dial");
                assertEquals(r.refusals(), t.result().orElseThrow().refusals());
                dials += r.dials();
                refusals += r.refusals();
            }
            assertEquals(result.fleet().dials(), dials, "the fleet saw every dial the tenants sent");
            assertEquals(result.fleet().refused() + result.fleet().unreachable(), refusals);
            assertEquals(0, result.fleet().busy(), "no slot is left taken");
            assertTrue(result.fleet().peakBusy() <= 6);
            ProgressSample last = samples.getLast();
            assertEquals(90, last.delivered());
            assertEquals(90, last.totalSegments());
            assertEquals(0, last.running() + last.queued() + last.dialing());
        }
    }

    @Test
    void aFatalFaultFailsItsTenantsRequestWithAMessageNamingTheUnit() throws Exception {
        RunResult result = new SimulationRun(scenario(new FaultRates(0, 0, 0, 0.05, 0)),
                RunSpec.all(Strategy.ORDERED, 3), Duration.ofSeconds(1), p -> { }).run();
        assertTrue(!result.allCompleted(), "a 5% fatal rate over 180 jobs fails a request");
        String failure = result.tenants().stream().flatMap(t -> t.failure().stream()).findFirst().orElseThrow();
        assertTrue(failure.contains("segment") && failure.contains("fatal"), failure);
        assertEquals(0, result.fleet().busy(), "a failed request leaves no slot taken");
    }

    @Test
    void interruptingTheCallerCancelsEveryTenantAndReturnsAfterTheyEnded() throws Exception {
        // Real time: this run would take minutes if it were not cancelled.
        FleetConfig fleet = new FleetConfig(2, 3, Duration.ofSeconds(2), 0.4, FaultRates.NONE, 42,
                TimeScale.REAL_TIME);
        Scenario slow = new Scenario(30, 2, 8, 3, fleet, Duration.ZERO, Duration.ofMillis(100), Duration.ofSeconds(1));
        List<ProgressSample> samples = new CopyOnWriteArrayList<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                new SimulationRun(slow, RunSpec.all(Strategy.UNORDERED, 3), Duration.ofMillis(20), samples::add).run();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> !samples.isEmpty() && samples.getLast().fleetBusy() == 6);
        caller.interrupt();
        caller.join(Duration.ofSeconds(5));
        assertTrue(!caller.isAlive(), "the run ended within 5 s of the interrupt, not after its jobs' 2 s each");
        assertTrue(thrown.get() instanceof InterruptedException, String.valueOf(thrown.get()));
    }
}
