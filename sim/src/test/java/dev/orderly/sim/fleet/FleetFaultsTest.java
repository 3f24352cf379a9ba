package dev.orderly.sim.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class FleetFaultsTest {

    private static final int DIALS = 40_000;

    /** A fleet with room for everything, whose jobs take no wall-clock time at all. */
    private static FleetConfig roomy(FaultRates faults, long seed) {
        return new FleetConfig(1, DIALS, Duration.ofSeconds(2), 0.4, faults, seed, new TimeScale(1e15));
    }

    /** Fails unless {@code count} of {@code n} trials is within 5 standard deviations of {@code n * p}. */
    private static void assertRate(String what, long count, long n, double p) {
        double mean = n * p;
        double sigma = Math.sqrt(n * p * (1 - p));
        assertTrue(Math.abs(count - mean) <= 5 * sigma + 1,
                what + ": " + count + " of " + n + ", expected " + mean + " +- " + 5 * sigma);
    }

    @Test
    void everyFaultFiresAtItsRateWithinStatisticalBounds() throws Exception {
        FaultRates rates = new FaultRates(0.10, 0.05, 0.08, 0.02, 0.10);
        SimulatedFleet fleet = new SimulatedFleet(roomy(rates, 42));
        SimulatedTier2 tier2 = fleet.tenant("t", 1);
        long unreachable = 0;
        Map<Tier2Exception.Kind, Long> failed = new EnumMap<>(Tier2Exception.Kind.class);
        long succeeded = 0;
        long missing = 0;
        for (int s = 0; s < DIALS; s++) {
            SimulatedCall call;
            try {
                call = tier2.dial(new Job("t", new JobKey(s, 0), 1));
            } catch (Tier2Exception e) {
                assertEquals(Tier2Exception.Kind.UNREACHABLE, e.kind());
                unreachable++;
                continue;
            }
            try (call) {
                call.await();
                if (tier2.outputs().read(s).isPresent()) {
                    succeeded++;
                } else {
                    missing++;
                }
            } catch (Tier2Exception e) {
                failed.merge(e.kind(), 1L, Long::sum);
            }
        }
        long admitted = DIALS - unreachable;
        assertRate("unreachable", unreachable, DIALS, 0.10);
        assertRate("execution timeouts", failed.getOrDefault(Tier2Exception.Kind.EXECUTION_TIMEOUT, 0L), admitted,
                0.05);
        assertRate("retryable failures", failed.getOrDefault(Tier2Exception.Kind.RETRYABLE, 0L), admitted, 0.08);
        assertRate("fatal failures", failed.getOrDefault(Tier2Exception.Kind.FATAL, 0L), admitted, 0.02);
        assertRate("missing outputs", missing, admitted, 0.10);
        assertRate("successes", succeeded, admitted, 0.75);
        assertEquals(0, fleet.stats().busy());
        assertEquals(missing, fleet.stats().ended(Fate.Outcome.OUTPUT_MISSING));
    }

    @Test
    void withNoFaultsEveryAdmittedJobSucceeds() throws Exception {
        SimulatedFleet fleet = new SimulatedFleet(roomy(FaultRates.NONE, 1));
        SimulatedTier2 tier2 = fleet.tenant("t", 1);
        for (int s = 0; s < 1000; s++) {
            try (SimulatedCall call = tier2.dial(new Job("t", new JobKey(s, 0), 1))) {
                call.await();
            }
        }
        assertEquals(1000, fleet.stats().ended(Fate.Outcome.SUCCEEDED));
    }

    @Test
    void theSameSeedGivesTheSameFatesAndAnotherSeedOtherOnes() {
        FaultRates rates = new FaultRates(0.2, 0.1, 0.1, 0.1, 0.1);
        FateDraws a = new FateDraws(roomy(rates, 42));
        FateDraws b = new FateDraws(roomy(rates, 42));
        FateDraws c = new FateDraws(roomy(rates, 43));
        List<Object> fromA = new ArrayList<>();
        List<Object> fromB = new ArrayList<>();
        List<Object> fromC = new ArrayList<>();
        for (int s = 0; s < 200; s++) {
            JobKey key = new JobKey(s, s % 3);
            for (FateDraws d : List.of(a, b, c)) {
                List<Object> into = d == a ? fromA : d == b ? fromB : fromC;
                into.add(d.dial("tenant-1", key, 1 + s % 5));
                into.add(d.admission("tenant-1", key, 1, true));
            }
        }
        assertEquals(fromA, fromB);
        assertNotEquals(fromA, fromC);
    }

    @Test
    void aUnitTakesTheSameTimeOnEveryAdmissionAndRunTimesCentreOnTheMedian() {
        FateDraws draws = new FateDraws(roomy(FaultRates.NONE, 42));
        JobKey key = new JobKey(3, 1);
        assertEquals(draws.admission("t", key, 1, true).runFor(), draws.admission("t", key, 2, true).runFor());
        List<Long> millis = new ArrayList<>();
        for (int s = 0; s < 10_001; s++) {
            millis.add(draws.runTime("t", new JobKey(s, 0)).toMillis());
        }
        millis.sort(null);
        long median = millis.get(millis.size() / 2);
        assertTrue(Math.abs(median - 2000) < 100, "median run time " + median + " ms, expected about 2000 ms");
        assertTrue(millis.getLast() > 2 * median, "a log-normal spread of 0.4 has a long right tail");
    }

    @Test
    void aRateOutsideZeroToOneIsRejectedNamingTheRate() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new FaultRates(0, 0, 1.5, 0, 0));
        assertTrue(e.getMessage().contains("retryable rate") && e.getMessage().contains("1.5"), e.getMessage());
        IllegalArgumentException sum = assertThrows(IllegalArgumentException.class,
                () -> new FaultRates(0, 0.5, 0.5, 0.5, 0));
        assertTrue(sum.getMessage().contains("at most 1"), sum.getMessage());
    }
}
