package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep point's job is its ratio times the refused delay to the nearest nanosecond, but the table, the line per
 * point and the chart named the ratio as given: {@code --refused-delay=3us --job-ratios=0.0005} ran jobs of 2ns
 * (1.5ns rounded), a third longer than asked, and every output called the point {@code 5.0E-4x}. The fullness was
 * already written as the fleet ran it; the job ratio now is too: the job that ran over the refused delay.
 */
@Timeout(60)
class ASweepNamesTheJobRatioItRanTest {

    @Test
    void aRatioRoundedToTheNanosecondIsWrittenAsItRan(@TempDir Path dir) throws Exception {
        Path chart = dir.resolve("sweep.svg");
        CliRun o = CliRun.of("sweep", "--refused-delay=3us", "--job-ratios=0.0005", "--fullness=0.5", "--tenants=1",
                "--segments=4", "--time-scale=100", "-o", chart.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        String ran = Double.toString(2.0 / 3000); // a 2ns job over a 3000ns refused delay
        assertTrue(o.out().contains("job " + ran + "x refused delay"), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("0.5x      " + ran + "x")), o.out());
        assertFalse(o.out().contains("5.0E-4"), o.out());
        assertFalse(Files.readString(chart).contains("5.0E-4"), "the chart names the point that ran");
    }
}
