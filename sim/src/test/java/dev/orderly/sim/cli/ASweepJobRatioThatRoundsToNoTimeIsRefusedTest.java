package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code orderly sweep --refused-delay=1ns --job-ratios=0.4} was taken: a point's job is the ratio times the refused
 * delay, to the nearest nanosecond, here none. The sweep printed its heading, warmed up, and then exited 1 with the
 * fleet's {@code job duration must be > 0, was PT0S}, Java's way of writing a duration. It is now exit 2 naming
 * {@code --job-ratios}, before anything runs; a ratio that gives one nanosecond still runs.
 */
@Timeout(60)
class ASweepJobRatioThatRoundsToNoTimeIsRefusedTest {

    @TempDir
    Path dir;

    @Test
    void aJobRatioOfATinyRefusedDelayThatGivesNoTimeIsABadOption() {
        CliRun o = CliRun.of("sweep", "--refused-delay=1ns", "--job-ratios=0.4", "-q", "-o",
                dir.resolve("sweep.svg").toString());
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals("orderly: --job-ratios must give jobs of at least 1ns: 0.4 x the refused delay of 1ns is no time,"
                + " was 0.4 (see orderly sweep --help)", o.line());
    }
}
