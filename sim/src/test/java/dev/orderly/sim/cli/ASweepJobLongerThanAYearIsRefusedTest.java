package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep point's job is its ratio times the refused delay, and both options were checked alone: a refused delay of
 * up to a year (the bound of every duration option) and a ratio of up to 10000. {@code orderly sweep
 * --refused-delay=8760h --job-ratios=10000} was taken, and its job of 10000 years, more nanoseconds than a long holds,
 * was silently cut to about 292 years (the table would still have called it 10000x); the sweep printed its heading
 * and then nothing, for ever. A job longer than a year, what {@code orderly --job-duration} refuses, is now exit 2
 * naming {@code --job-ratios}, before anything runs.
 */
@Timeout(60)
class ASweepJobLongerThanAYearIsRefusedTest {

    @TempDir
    Path dir;

    @Test
    void aJobOfTenThousandYearsIsABadOption() {
        CliRun o = CliRun.of("sweep", "--refused-delay=8760h", "--job-ratios=10000", "--fullness=1", "-q", "-o",
                dir.resolve("sweep.svg").toString());
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals("orderly: --job-ratios must give jobs of at most a year (8760h): 10000 x the refused delay of"
                + " 31536000s is longer, was 10000 (see orderly sweep --help)", o.line());
    }

    @Test
    void aJobJustOverAYearIsABadOptionToo() {
        // 1h x 8761: no overflow, but a job orderly --job-duration=8761h would refuse
        CliRun o = CliRun.of("sweep", "--refused-delay=1h", "--job-ratios=5,8761", "--fullness=1", "-q", "-o",
                dir.resolve("sweep.svg").toString());
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertTrue(o.line().startsWith("orderly: --job-ratios must give jobs of at most a year (8760h): 8761 x"),
                o.line());
    }
}
