package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Regression: an option written before a subcommand's name was read by the command that does not run, and dropped
 * without a word: {@code ./orderly --instances=2 fleet} started 4 tier2 processes, {@code ./orderly --segments=5
 * --tenants=1 sweep} swept 4 tenants of 40 segments, and {@code ./orderly --segments=0 sweep} ran although 0 is out of
 * range. The option is refused, exit 2, naming it, its value and the command that would have ignored it; each case
 * below gives the subcommand a bad value of its own too, so that on the old code the run ends at once (refused for
 * that value, never for the option before the name).
 */
@Timeout(60)
class AnOptionGivenBeforeItsCommandIsNotIgnoredTest {

    @ParameterizedTest
    @CsvSource(delimiter = '#', value = {
        "--segments=7 sweep --time-scale=0#orderly: --segments=7 is given before 'sweep', where orderly sweep does"
                + " not read it: give it after 'sweep' (see orderly sweep --help)",
        "--instances=2 fleet --kill-one-at=-1s#orderly: --instances=2 is given before 'fleet', where orderly fleet"
                + " does not read it: give it after 'fleet' (see orderly fleet --help)",
        "-q sweep --time-scale=0#orderly: --quiet is given before 'sweep', where orderly sweep does not read it: give it"
                + " after 'sweep' (see orderly sweep --help)",
        "fleet --segments=3 bench --instances=0#orderly: --segments=3 is given before 'bench', where orderly fleet"
                + " bench does not read it (see orderly fleet bench --help)",
        "--strategy=ordered sweep --time-scale=0#orderly: --strategy=ordered is given before 'sweep', where orderly"
                + " sweep does not read it (see orderly sweep --help)"})
    void theOptionIsRefusedNamingItAndItsValue(String args, String said) {
        CliRun o = CliRun.of(args.split(" "));
        assertEquals(2, o.code(), o.err());
        assertEquals(said, o.line());
        assertEquals("", o.out());
    }

    @Test
    void theParentsHelpStillPrintsItsHelp() {
        CliRun o = CliRun.of("--help", "sweep");
        assertEquals(0, o.code(), o.err());
        assertEquals("", o.err());
    }
}
