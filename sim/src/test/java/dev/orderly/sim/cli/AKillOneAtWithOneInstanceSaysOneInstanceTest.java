package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code orderly fleet --kill-one-at=1s --instances=1} was refused as "was 1s with 1 instances": the one count the
 * simulator still printed in the plural at one. It now says "with 1 instance".
 */
@Timeout(30)
class AKillOneAtWithOneInstanceSaysOneInstanceTest {

    @Test
    void theRefusalCountsOneInstanceInTheSingular() {
        CliRun run = CliRun.of("fleet", "--kill-one-at=1s", "--instances=1");
        assertEquals(2, run.code(), run.err());
        assertEquals("orderly: --kill-one-at needs a duration >= 0 and --instances >= 2, was 1s with 1 instance"
                + " (see orderly fleet --help)", run.line());
    }

    @Test
    void andTwoOrMoreInThePlural() {
        CliRun run = CliRun.of("fleet", "--kill-one-at=-1s");
        assertEquals(2, run.code(), run.err());
        assertEquals("orderly: --kill-one-at needs a duration >= 0 and --instances >= 2, was -1s with 4 instances"
                + " (see orderly fleet --help)", run.line());
    }
}
