package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code orderly sweep --fullness=1e-9} was taken (the check is only "> 0 and <= 100"), printed its heading, warmed
 * up, and then exited 1 with {@code orderly: instances must be >= 1, was -1474836480}: a point's fleet has
 * {@code round(tenants x workers / (fullness x slots))} instances, 2e10 here, cast to an int. A fullness a little
 * larger (1e-8: 2e9 instances) did not overflow and tried to build that many instances' waiting rooms. A fullness
 * whose fleet would have more instances than the simulator makes (10000, the main command's bound on --instances) is
 * now exit 2 naming --fullness, before anything runs; the bound itself still runs.
 */
@Timeout(60)
class ASweepFullnessThatAsksForTooManyInstancesIsRefusedTest {

    @TempDir
    Path dir;

    @Test
    void aFullnessWhoseInstanceCountOverflowsAnIntIsABadOption() {
        CliRun o = CliRun.of("sweep", "--fullness=1e-9", "-q", "-o", dir.resolve("sweep.svg").toString());
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals(1, o.line().lines().count(), o.err());
        assertTrue(o.line().startsWith("orderly: --fullness must be"), o.line());
        assertTrue(o.line().endsWith("(see orderly sweep --help)"), o.line());
        assertFalse(o.line().contains("instances must be >= 1"), o.line());
    }

    @Test
    void aFullnessOfExactlyTheMostInstancesStillRuns() {
        // 1 tenant x 1 worker on 1-slot instances at fullness 0.0001: 10000 instances, the bound.
        CliRun o = CliRun.of("sweep", "--tenants=1", "--workers=1", "--slots=1", "--fullness=0.0001",
                "--segments=1", "--job-ratios=5", "--time-scale=100", "-q", "-o",
                dir.resolve("sweep.svg").toString());
        assertEquals(0, o.code(), o.out() + o.err());
    }
}
