package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --format=json}'s {@code scenario} left out the fault rates, the engine's settings and the waiting room: a
 * run with {@code --unreachable-rate=0.2 --max-failures=9 --room=3} printed the same scenario as one with the
 * defaults, though the table's heading names them, so the run could not be told apart or made again from its JSON.
 * The scenario now carries every option that shapes the run.
 */
@Timeout(60)
class TheJsonScenarioCarriesEveryOptionThatShapesTheRunTest {

    @Test
    void theFaultRatesTheEngineAndTheWaitingRoomAreInTheScenario(@TempDir Path dir) {
        CliRun o = CliRun.of("--tenants=1", "--segments=2", "--stages=1", "--time-scale=100", "--strategy=waiting",
                "--unreachable-rate=0.2", "--timeout-rate=0.03", "--retryable-rate=0.04", "--fatal-rate=0",
                "--missing-output-rate=0.05", "--launch-window-percent=30", "--launch-window-max=7",
                "--max-failures=9", "--max-execution-timeouts=8", "--lookahead-factor=3", "--max-concurrent-jobs=11",
                "--admission-wait=2s", "--room=3", "--wait-at=2", "--format=json",
                "-o", dir.resolve("t.svg").toString());
        assertEquals(0, o.code(), o.err());
        String scenario = o.out().substring(o.out().indexOf("\"scenario\""), o.out().indexOf("\"runs\""));
        assertAll(
                () -> assertTrue(scenario.contains("\"unreachableRate\": 0.2,"), scenario),
                () -> assertTrue(scenario.contains("\"timeoutRate\": 0.03,"), scenario),
                () -> assertTrue(scenario.contains("\"retryableRate\": 0.04,"), scenario),
                () -> assertTrue(scenario.contains("\"fatalRate\": 0.0,"), scenario),
                () -> assertTrue(scenario.contains("\"missingOutputRate\": 0.05,"), scenario),
                () -> assertTrue(scenario.contains("\"launchWindowPercent\": 30,"), scenario),
                () -> assertTrue(scenario.contains("\"launchWindowMax\": 7,"), scenario),
                () -> assertTrue(scenario.contains("\"maxFailures\": 9,"), scenario),
                () -> assertTrue(scenario.contains("\"maxExecutionTimeouts\": 8,"), scenario),
                () -> assertTrue(scenario.contains("\"lookaheadFactor\": 3.0,"), scenario),
                () -> assertTrue(scenario.contains("\"maxConcurrentJobs\": 11,"), scenario),
                () -> assertTrue(scenario.contains("\"admission\": \"wait\","), scenario),
                () -> assertTrue(scenario.contains("\"admissionWaitSeconds\": 2.0,"), scenario),
                () -> assertTrue(scenario.contains("\"room\": 3,"), scenario),
                () -> assertTrue(scenario.contains("\"waitAt\": 2"), scenario));
    }

    @Test
    void aRunWithoutAWaitingRoomSaysSo(@TempDir Path dir) {
        CliRun o = CliRun.of("--tenants=1", "--segments=2", "--stages=1", "--time-scale=100", "--strategy=ordered",
                "--admission=refuse", "--format=json", "-o", dir.resolve("t.svg").toString());
        assertEquals(0, o.code(), o.err());
        String scenario = o.out().substring(o.out().indexOf("\"scenario\""), o.out().indexOf("\"runs\""));
        assertTrue(scenario.contains("\"admission\": \"refuse\""), scenario);
        assertTrue(!scenario.contains("\"room\""), "no room to describe: " + scenario);
    }
}
