package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --unreachable-rate=1} was taken (the rates were checked to be within 0..1), and then no dial could ever get
 * in: every job redialed for ever and the run never ended. A rate of 1 is now refused, exit 2 naming the option and
 * the value as written; a rate just under it still runs. The per-admission rates may still be 1: the engine's retry
 * limits end such a run with a failed request.
 */
@Timeout(30)
class AnUnreachableRateOfOneIsRefusedTest {

    @Test
    void aRateOfOneIsRefusedBeforeAnythingRuns() {
        CliRun o = CliRun.of("--unreachable-rate=1");
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals(1, o.line().lines().count(), o.err());
        assertTrue(o.line().startsWith("orderly: --unreachable-rate must be >= 0 and < 1, was '1'"), o.line());
        assertFalse(o.err().contains("Exception") || o.err().contains("java."), o.err());
    }

    @Test
    void aRateAboveOneIsStillRefusedWithTheSameRule() {
        CliRun o = CliRun.of("--unreachable-rate=1.5");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.line().startsWith("orderly: --unreachable-rate must be >= 0 and < 1, was '1.5'"), o.line());
    }

    @Test
    void aRateJustUnderOneStillRuns(@TempDir Path dir) {
        CliRun o = CliRun.of("--tenants=1", "--segments=1", "--stages=1", "--time-scale=100", "--strategy=ordered", "-q",
                "-o", dir.resolve("t.svg").toString(), "--unreachable-rate=0.5");
        assertEquals(0, o.code(), o.out() + o.err());
    }

    @Test
    void aPerAdmissionRateOfOneIsTakenBecauseTheEnginesRetryLimitsEndTheRun(@TempDir Path dir) {
        CliRun o = CliRun.of("--tenants=1", "--segments=1", "--stages=1", "--time-scale=100", "--strategy=ordered", "-q",
                "-o", dir.resolve("t.svg").toString(), "--retryable-rate=1", "--timeout-rate=0",
                "--missing-output-rate=0", "--failure-delay=100ms");
        assertEquals(1, o.code(), "the request fails, the run ends: " + o.out() + o.err());
    }
}
