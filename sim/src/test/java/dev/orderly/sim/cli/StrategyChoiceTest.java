package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.sim.run.Strategy;
import org.junit.jupiter.api.Test;

class StrategyChoiceTest {

    @Test
    void aChoiceRunsTheRoomExactlyWhenOneOfItsRunsWaitsInIt() {
        for (StrategyChoice choice : StrategyChoice.values()) {
            for (boolean room : new boolean[] {false, true}) {
                boolean waits = choice.runs(3, room).stream()
                        .anyMatch(r -> r.tenantStrategies().contains(Strategy.WAITING));
                assertEquals(waits, choice.runsTheRoom(room), () -> choice.label() + ", room " + room);
            }
        }
    }
}
