package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --time-scale} had no lower bound but {@code > 0}: 1e-9, 0.001 or 0.01 were taken, and the run, whose every
 * simulated second then lasts from 100 wall seconds to 30 years, went on for hours. The scale is now at least 1 (a
 * simulated second never lasts longer than a wall second) in every command that takes it (the main command, sweep
 * and fleet), and a smaller one is exit 2 naming the option and the value as written; 1 itself still runs.
 */
@Timeout(30)
class ATimeScaleUnderOneIsRefusedTest {

    private static void assertRefused(CliRun o, String value, String command) {
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals(1, o.line().lines().count(), o.err());
        assertTrue(o.line().startsWith("orderly: --time-scale must be >= 1 and <= 200, was '" + value + "'"),
                o.line());
        assertTrue(o.line().endsWith("(see " + command + " --help)"), o.line());
        assertFalse(o.err().contains("Exception") || o.err().contains("java."), o.err());
    }

    @ParameterizedTest(name = "--time-scale={0}")
    @ValueSource(strings = {"1e-9", "0.001", "0.01", "0.99"})
    void theMainCommandRefusesAScaleUnderOne(String scale) {
        assertRefused(CliRun.of("--time-scale=" + scale), scale, "orderly");
    }

    @ParameterizedTest(name = "sweep --time-scale={0}")
    @ValueSource(strings = {"1e-9", "0.01"})
    void theSweepRefusesAScaleUnderOne(String scale) {
        assertRefused(CliRun.of("sweep", "--time-scale=" + scale), scale, "orderly sweep");
    }

    @ParameterizedTest(name = "fleet --time-scale={0}")
    @ValueSource(strings = {"1e-9", "0.01"})
    void theFleetRefusesAScaleUnderOneBeforeItStartsAProcess(String scale) {
        assertRefused(CliRun.of("fleet", "--time-scale=" + scale), scale, "orderly fleet");
    }

    @Test
    void theUpperBoundSaysTheSameRule() {
        assertRefused(CliRun.of("--time-scale=201"), "201", "orderly");
    }

    @Test
    void aScaleOfOneStillRuns(@TempDir Path dir) {
        CliRun o = CliRun.of("--tenants=1", "--segments=1", "--stages=1", "--job-duration=100ms", "--client-time=0",
                "--time-scale=1", "--strategy=ordered", "-q", "-o", dir.resolve("t.svg").toString());
        assertEquals(0, o.code(), o.out() + o.err());
    }
}
