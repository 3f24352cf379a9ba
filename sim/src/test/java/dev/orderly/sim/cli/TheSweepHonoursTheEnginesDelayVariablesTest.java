package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code orderly sweep} ignored {@code SUBSTREAMS_WORKER_OVERLOADED_RETRY_DELAY} and
 * {@code SUBSTREAMS_WORKER_FAILED_RETRY_DELAY}: its option's default (100ms) and a fixed 1 s failure delay always
 * replaced them, while the main command honours them. The sweep now reads them as the main command does (as simulated
 * time; an explicit {@code --refused-delay} still wins), and says which delays it used in its heading.
 */
@Timeout(30)
class TheSweepHonoursTheEnginesDelayVariablesTest {

    private static CliRun sweep(Map<String, String> env, Path dir, String... more) {
        List<String> args = new ArrayList<>(List.of("sweep", "-q", "--job-ratios=5", "--fullness=2", "--segments=2",
                "--tenants=1", "--workers=2", "--time-scale=100", "--admission=refuse", "-o",
                dir.resolve("s.svg").toString()));
        args.addAll(List.of(more));
        return CliRun.of(env, args.toArray(String[]::new));
    }

    @Test
    void theVariablesSetTheDelays(@TempDir Path dir) {
        CliRun o = sweep(Map.of("SUBSTREAMS_WORKER_OVERLOADED_RETRY_DELAY", "250ms",
                "SUBSTREAMS_WORKER_FAILED_RETRY_DELAY", "3s"), dir);
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("refused delay 250ms, failure delay 3s,"), o.out());
    }

    @Test
    void anExplicitOptionStillWins(@TempDir Path dir) {
        CliRun o = sweep(Map.of("SUBSTREAMS_WORKER_OVERLOADED_RETRY_DELAY", "250ms"), dir, "--refused-delay=50ms");
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("refused delay 50ms, failure delay 1s,"), o.out());
    }

    @Test
    void withoutThemTheDefaultsAreAsBefore(@TempDir Path dir) {
        CliRun o = sweep(Map.of(), dir);
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("refused delay 100ms, failure delay 1s,"), o.out());
    }

    @Test
    void aRefusedDelayOfZeroFromTheEnvironmentIsRefusedNamingTheVariable(@TempDir Path dir) {
        CliRun o = sweep(Map.of("SUBSTREAMS_WORKER_OVERLOADED_RETRY_DELAY", "0s"), dir);
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        String line = o.err().strip();
        assertEquals(1, line.lines().count(), line);
        assertTrue(line.startsWith("orderly: environment: SUBSTREAMS_WORKER_OVERLOADED_RETRY_DELAY must be > 0 for"
                + " orderly sweep"), line);
        assertTrue(line.contains("was '0s'"), line);
    }
}
