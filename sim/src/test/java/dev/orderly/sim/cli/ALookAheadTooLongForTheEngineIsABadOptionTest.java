package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code --lookahead-factor} (up to 1000) and {@code --workers} (up to 10000) were each checked alone, but
 * the engine refuses a request whose look-ahead {@code ceil(lookaheadFactor * workers)} is over 2^20 segments. So
 * {@code ./orderly --lookahead-factor=1000 --workers=10000} printed its heading, ran every strategy, and reported each
 * tenant as {@code failed: engine error: java.lang.IllegalArgumentException: the look-ahead ...}, exit 1; the sweep
 * did the same with {@code ORDERLY_LOOKAHEAD_FACTOR=1000}. The pair is now exit 2 before anything runs, naming both
 * and their values.
 */
@Timeout(120)
class ALookAheadTooLongForTheEngineIsABadOptionTest {

    @TempDir
    Path dir;

    @Test
    void theOptionsAreRefusedBeforeTheRun() {
        CliRun o = CliRun.of("--lookahead-factor=1000", "--workers=10000", "--segments=5", "--tenants=1",
                "--strategy=ordered", "-q", "--time-scale=200", "-o", dir.resolve("t.svg").toString());
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals(1, o.line().lines().count(), o.line());
        assertTrue(o.line().startsWith("orderly: --workers=10000 with --lookahead-factor=1000 "), o.line());
        assertFalse(o.line().contains("java.") || o.line().contains("Exception"), o.line());
        assertEquals("", o.out());
    }

    @Test
    void theSweepRefusesTheVariableBeforeItRuns() {
        CliRun o = CliRun.of(Map.of("ORDERLY_LOOKAHEAD_FACTOR", "1000"), "sweep", "--workers=2000", "--tenants=1",
                "--segments=1", "--job-ratios=5", "--fullness=100", "-q", "--time-scale=200", "-o",
                dir.resolve("s.svg").toString());
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.line().startsWith("orderly: --workers=2000 with ORDERLY_LOOKAHEAD_FACTOR=1000 "), o.line());
        assertEquals("", o.out());
    }
}
