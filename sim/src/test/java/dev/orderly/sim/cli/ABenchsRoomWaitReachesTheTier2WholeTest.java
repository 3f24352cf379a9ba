package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code orderly fleet bench --room-wait=1.5ms} gave its tier2 processes {@code --admission-wait=1ms} (whole
 * milliseconds, cut down) while its client asked for 2 ms: the room's wait the bench measured was not the one it said.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ABenchsRoomWaitReachesTheTier2WholeTest {

    @Test
    void aWaitWithAFractionOfAMillisecondIsPassedAsGiven() {
        assertEquals(List.of("--room=16", "--admission-wait=1.5ms"),
                WaitingRoomBench.roomArgs(4, Duration.ofMillis(1).plusNanos(500_000)));
        assertEquals(List.of("--room=32", "--admission-wait=250ms"),
                WaitingRoomBench.roomArgs(32, Duration.ofMillis(250)));
    }
}
