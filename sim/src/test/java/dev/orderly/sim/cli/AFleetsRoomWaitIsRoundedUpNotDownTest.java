package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.sim.fleet.Admission;
import dev.orderly.sim.fleet.FaultRates;
import dev.orderly.sim.fleet.FleetConfig;
import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.run.Scenario;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Regression: {@code orderly fleet --admission-wait=19ms --time-scale=10} gave its processes and its client a wait of
 * 1 ms of wall-clock time (1.9 ms cut to the millisecond), 10 ms simulated, about half the wait asked for, unsaid;
 * the protocol itself rounds a wait up to the millisecond. It is rounded up too now.
 */
class AFleetsRoomWaitIsRoundedUpNotDownTest {

    private static Scenario withWait(Duration wait, double timeScale) {
        FleetConfig fleet = new FleetConfig(2, 3, Duration.ofSeconds(2), 0.4, FaultRates.NONE, 42,
                new TimeScale(timeScale));
        return new Scenario(30, 1, 8, 1, fleet, Duration.ZERO, Duration.ofMillis(100), Duration.ofMillis(500))
                .withAdmission(Admission.waiting(wait, 4, 2));
    }

    @Test
    void aWaitBetweenTwoMillisecondsOfWallClockIsTheLonger() {
        assertEquals(Duration.ofMillis(2), FleetCommand.roomWait(withWait(Duration.ofMillis(19), 10)));
    }

    @Test
    void aWaitOfWholeMillisecondsIsKept() {
        assertEquals(Duration.ofMillis(3), FleetCommand.roomWait(withWait(Duration.ofMillis(30), 10)));
    }

    @Test
    void aWaitUnderAMillisecondOfWallClockIsOne() {
        assertEquals(Duration.ofMillis(1), FleetCommand.roomWait(withWait(Duration.ofMillis(1), 200)));
    }
}
