package dev.orderly.archtests.violations.engine;

import dev.orderly.archtests.violations.sim.SimulatorThatSleeps;

/** Bad: the engine depends on the simulator, which depends on the engine. */
public final class EngineThatUsesTheSimulator {
    public SimulatorThatSleeps fleet() {
        return new SimulatorThatSleeps();
    }
}
