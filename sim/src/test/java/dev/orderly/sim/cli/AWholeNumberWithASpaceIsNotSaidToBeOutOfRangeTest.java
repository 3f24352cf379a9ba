package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code orderly --segments=" 5"} (a value quoted with a space, as a script's variable may give it) said
 * {@code --segments must be a whole number from -9223372036854775808 to 9223372036854775807, was ' 5'}: 5 is in that
 * range, and the range is not what is wrong; picocli refused the space. The range is said only for a whole number that
 * does not fit the option's type; a small one with a space around it is said not to be a whole number, as written.
 */
@Timeout(30)
class AWholeNumberWithASpaceIsNotSaidToBeOutOfRangeTest {

    @Test
    void aSmallWholeNumberWithASpaceIsNotToldTheRange() {
        CliRun o = CliRun.of("--segments= 5");
        assertEquals(2, o.code(), o.err());
        assertEquals("orderly: --segments must be a whole number, was ' 5' (see orderly --help)", o.line());
    }

    @Test
    void anIntWithATrailingSpaceIsNotToldTheRange() {
        CliRun o = CliRun.of("--room=4 ");
        assertEquals(2, o.code(), o.err());
        assertEquals("orderly: --room must be a whole number, was '4 ' (see orderly --help)", o.line());
    }

    @Test
    void aWholeNumberTooLargeWithASpaceIsStillToldTheRange() {
        CliRun o = CliRun.of("--seed= 99999999999999999999");
        assertEquals(2, o.code(), o.err());
        assertEquals("orderly: --seed must be a whole number from -9223372036854775808 to 9223372036854775807, was"
                + " ' 99999999999999999999' (see orderly --help)", o.line());
    }
}
