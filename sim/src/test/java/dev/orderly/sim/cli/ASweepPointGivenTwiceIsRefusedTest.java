package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code orderly sweep --job-ratios=5,5} ran the point twice, printed two rows labelled {@code 1x 5x} with different
 * figures (thread timing differs from run to run) and drew the chart's line back and forth between them; so did two
 * fullness values that give the same fleet ({@code --fullness=1,1.01}: 80 workers on 20 instances either way, both
 * rows labelled {@code 1x}) and a list option given twice ({@code --fullness=1 --fullness=1}, which picocli appends).
 * A grid whose points repeat is now exit 2, naming the option and the values, before anything runs.
 */
@Timeout(60)
class ASweepPointGivenTwiceIsRefusedTest {

    @TempDir
    Path dir;

    private CliRun sweep(String... grid) {
        String[] args = new String[grid.length + 4];
        args[0] = "sweep";
        System.arraycopy(grid, 0, args, 1, grid.length);
        args[grid.length + 1] = "-q";
        args[grid.length + 2] = "-o";
        args[grid.length + 3] = dir.resolve("sweep.svg").toString();
        return CliRun.of(args);
    }

    @Test
    void aJobRatioGivenTwiceIsABadOption() {
        CliRun o = sweep("--job-ratios=5,10,5", "--fullness=1");
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals("orderly: --job-ratios gives 5 twice: give each point once (see orderly sweep --help)", o.line());
    }

    @Test
    void twoJobRatiosThatGiveTheSameJobAreABadOption() {
        CliRun o = sweep("--refused-delay=1ns", "--job-ratios=5,5.2", "--fullness=1");
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals("orderly: --job-ratios 5.2 gives the same job as 5, 5ns: give each point once (see orderly sweep"
                + " --help)", o.line());
    }

    @Test
    void aFullnessGivenTwiceAsTwoOptionsIsABadOption() {
        CliRun o = sweep("--job-ratios=5", "--fullness=1", "--fullness=1");
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals("orderly: --fullness gives 1 twice: give each point once (see orderly sweep --help)", o.line());
    }

    @Test
    void twoFullnessValuesThatGiveTheSameFleetAreABadOption() {
        CliRun o = sweep("--job-ratios=5", "--fullness=1,1.01");
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals("orderly: --fullness 1.01 gives the same fleet as 1, 20 instances of 4 slots: give each point once"
                + " (see orderly sweep --help)", o.line());
    }

    @Test
    void defaultFullnessValuesThatGiveTheSameFleetSayTheyAreTheDefault() {
        // One tenant of one worker: every default fullness (0.5, 1, 2, 4) asks for one instance.
        CliRun o = sweep("--tenants=1", "--workers=1", "--job-ratios=5");
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals("orderly: --fullness 1 gives the same fleet as 0.5, 1 instance of 4 slots: give each point once"
                + " (its default; give --fullness with values that make different points) (see orderly sweep --help)",
                o.line());
    }
}
