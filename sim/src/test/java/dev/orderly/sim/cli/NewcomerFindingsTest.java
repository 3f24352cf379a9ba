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
 * What a newcomer found wrong with the command line, one test per finding: each bad input gets one line that names
 * the option or variable and says what is wrong in the words a person uses, and nothing runs.
 */
@Timeout(30)
class NewcomerFindingsTest {

    private static void assertOneLineExit2(CliRun o) {
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals(1, o.line().lines().count(), "one line: " + o.err());
        assertFalse(o.err().contains("java.") || o.err().contains("Exception"), "no Java names: " + o.err());
    }

    @Test
    void bugFleetAcceptedUnreachableRateAndIgnoredIt() {
        CliRun o = CliRun.of("fleet", "--unreachable-rate=0.5");
        assertOneLineExit2(o);
        assertTrue(o.line().contains("--unreachable-rate") && o.line().contains("fleet"), o.line());
    }

    @Test
    void bugFleetWouldStartFiveHundredJvmsOnTwoCores() {
        int most = Tier2ProcessBudget.ofThisMachine().most();
        CliRun o = CliRun.of("fleet", "--instances=" + (most + 1));
        assertOneLineExit2(o);
        assertTrue(o.line().contains("--instances") && o.line().contains("was " + (most + 1)), o.line());
        assertTrue(o.line().contains("this machine") && o.line().contains(" " + most + " "), "says what fits: "
                + o.line());
        assertTrue(o.line().contains("core"), "says why: " + o.line());
    }

    @Test
    void bugFleetBenchThreadsZeroListedEveryFieldInsteadOfNamingTheBadOne() {
        CliRun o = CliRun.of("fleet", "bench", "--threads=0");
        assertOneLineExit2(o);
        assertTrue(o.line().contains("--threads must be between 1 and 1024, was 0"), o.line());
        for (String other : new String[] {"--seconds", "--jobs", "--instances"}) {
            assertFalse(o.line().contains(other), "names only the bad option, not " + other + ": " + o.line());
        }
    }

    @Test
    void bugAMistypedEngineVariableWasSilentlyIgnored(@TempDir Path dir) {
        CliRun o = CliRun.of(Map.of("SUBSTREAMS_WORKER_MAXRETRIES", "3"), "--tenants=1", "--segments=2",
                "--time-scale=50", "--strategy=ordered", "-q", "-o", dir.resolve("t.svg").toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("warning") && o.err().contains("SUBSTREAMS_WORKER_MAXRETRIES")
                && o.err().contains("did you mean SUBSTREAMS_WORKER_MAX_RETRIES"), o.err());
    }

    @Test
    void bugWordsForANumberSaidItIsNotALong() {
        CliRun o = CliRun.of("--seed=abc");
        assertOneLineExit2(o);
        assertTrue(o.line().contains("--seed must be a whole number, was 'abc'"), o.line());
        assertFalse(o.line().contains("long"), o.line());

        CliRun rate = CliRun.of("--timeout-rate=often");
        assertOneLineExit2(rate);
        assertTrue(rate.line().contains("--timeout-rate must be a number, was 'often'"), rate.line());
    }

    @Test
    void bugAMistypedOptionGotNoSuggestion() {
        CliRun o = CliRun.of("--segmnts=3");
        assertOneLineExit2(o);
        assertTrue(o.line().contains("--segmnts") && o.line().contains("did you mean --segments?"), o.line());
    }

    @Test
    void aMistypedValueGetsTheClosestOneWithoutPicocliWordsBeforeIt() {
        CliRun o = CliRun.of("--strategy=odered");
        assertOneLineExit2(o);
        assertTrue(o.line().startsWith("orderly: --strategy: 'odered' is not a strategy; did you mean ordered?"),
                o.line());
        assertFalse(o.line().contains("Invalid value"), o.line());
    }

    @Test
    void bugAMistypedCommandGotNoSuggestion() {
        CliRun o = CliRun.of("swep");
        assertOneLineExit2(o);
        assertTrue(o.line().contains("swep") && o.line().contains("did you mean sweep?"), o.line());
    }

    @Test
    void theEngineSettingsHaveTheNamesOfTheirFieldsAndTheOldSpellingsStillWork(@TempDir Path dir) {
        CliRun o = CliRun.of("--tenants=1", "--segments=2", "--time-scale=50", "--strategy=ordered", "-q", "-o",
                dir.resolve("t.svg").toString(), "--launch-window-percent=50", "--launch-window-max=3",
                "--max-execution-timeouts=4", "--lookahead-factor=1.5");
        assertEquals(0, o.code(), o.out() + o.err());
        CliRun old = CliRun.of("--tenants=1", "--segments=2", "--time-scale=50", "--strategy=ordered", "-q", "-o",
                dir.resolve("t.svg").toString(), "--window-percent=50", "--window-max=3", "--max-timeouts=4",
                "--lookahead=1.5");
        assertEquals(0, old.code(), old.out() + old.err());
        CliRun bad = CliRun.of("--max-execution-timeouts=0");
        assertOneLineExit2(bad);
        assertTrue(bad.line().contains("--max-execution-timeouts must be >= 1, was 0"), bad.line());
    }

    @Test
    void theEngineWideJobCapIsAnOptionNamedForItsField(@TempDir Path dir) {
        CliRun o = CliRun.of("--tenants=2", "--segments=4", "--time-scale=50", "--strategy=ordered", "-q", "-o",
                dir.resolve("t.svg").toString(), "--max-concurrent-jobs=3");
        assertEquals(0, o.code(), o.out() + o.err());
        CliRun bad = CliRun.of("--max-concurrent-jobs=-2");
        assertOneLineExit2(bad);
        assertTrue(bad.line().contains("--max-concurrent-jobs must be >= 1, or 0 for unlimited, was -2"), bad.line());
    }
}
