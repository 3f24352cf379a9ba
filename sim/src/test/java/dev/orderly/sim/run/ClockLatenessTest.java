package dev.orderly.sim.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.sim.fleet.TimeScale;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class ClockLatenessTest {

    private static final Duration REFUSED_DELAY = Duration.ofMillis(100);

    @Test
    void bugARunWhoseClockFellBehindGaveNoWarning() {
        // 0.5 ms late per wake-up: 5 ms simulated at 10x (honest), 50 ms at 100x, half a refused delay (behind).
        ClockLateness late = new ClockLateness(1000, 500_000, 2_000_000);
        assertFalse(late.behind(new TimeScale(10), REFUSED_DELAY));
        assertTrue(late.behind(new TimeScale(100), REFUSED_DELAY));
    }

    @Test
    void aScenarioWithNoDelayToResolveIsNeverBehind() {
        assertFalse(new ClockLateness(1000, 500_000, 2_000_000).behind(new TimeScale(1000), Duration.ZERO));
    }

    @Test
    void theProbeMeasuresWakeUpsAndStopsPromptly() throws Exception {
        ClockProbe probe = new ClockProbe();
        probe.start();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(2)).until(() -> probe.samples() >= 3);
        ClockLateness measured = probe.stop();
        assertTrue(measured.samples() >= 3, measured.toString());
        assertTrue(measured.maxNanos() >= measured.meanNanos(), measured.toString());
    }
}
