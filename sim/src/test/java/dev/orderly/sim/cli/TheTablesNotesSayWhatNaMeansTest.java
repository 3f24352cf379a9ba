package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: the table printed {@code n/a} in its ratio rows (the oracle is never refused, so refusals
 * ordered/oracle divides by zero), while its notes and the simulator guide explained only {@code -} and
 * {@code >Nx}.
 */
@Timeout(60)
class TheTablesNotesSayWhatNaMeansTest {

    @Test
    void aTableThatShowsNaSaysWhatItMeans(@TempDir Path dir) throws Exception {
        CliRun run = CliRun.of("--tenants=2", "--segments=4", "--stages=1", "--workers=2", "--instances=1",
                "--slots=1", "--time-scale=100", "-o", dir.resolve("t.svg").toString());
        assertEquals(0, run.code(), run.out() + "\n" + run.err());
        assertTrue(run.out().contains(" n/a"), "this scenario's table shows n/a:\n" + run.out());
        assertTrue(run.out().contains("'n/a' when"), "the notes do not say what n/a means:\n" + run.out());
        String guide = Files.readString(Path.of("..", "docs", "guide", "simulator.md"));
        assertTrue(guide.contains("`n/a` when"), "the simulator guide does not say what n/a means");
    }
}
