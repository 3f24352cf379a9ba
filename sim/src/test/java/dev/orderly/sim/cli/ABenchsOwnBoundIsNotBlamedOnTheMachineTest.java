package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code orderly fleet bench} takes at most 64 instances, whatever the machine. On a machine with room for more (16
 * cores: 128) {@code --instances=65} was refused as "must be between 1 and 64 on this machine, ... this machine has
 * room for 64 (8 per core on 16 cores)": the command's own bound, blamed on the machine with a reason that gives 128.
 * The bound the command sets is now said as the command's, and the machine is named only when it is the lower.
 */
class ABenchsOwnBoundIsNotBlamedOnTheMachineTest {

    private static final CommandLine CL = new CommandLine(CommandSpec.create());
    private static final long GIB = 1L << 30;

    @Test
    void aBoundOfTheCommandLowerThanTheMachinesIsSaidAsTheCommands() {
        ParameterException e = assertThrows(ParameterException.class,
                () -> new Tier2ProcessBudget(16, 64 * GIB).check(CL, "--instances", 65, 64));
        assertEquals("--instances must be between 1 and 64, was 65", e.getMessage());
    }

    @Test
    void theMachinesBoundIsStillSaidWithItsReason() {
        ParameterException e = assertThrows(ParameterException.class,
                () -> new Tier2ProcessBudget(2, 64 * GIB).check(CL, "--instances", 17, 64));
        assertEquals("--instances must be between 1 and 16 on this machine, was 17: each tier2 instance is a JVM of"
                + " its own, and this machine has room for 16 (8 per core on 2 cores)", e.getMessage());
    }
}
