package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code orderly --seed=99999999999999999999} said {@code --seed must be a whole number, was '99999999999999999999'}:
 * it is one, only too large for the option. A whole number out of the option's type's range now says the range.
 */
@Timeout(30)
class AWholeNumberTooLargeIsNotSaidToBeNoWholeNumberTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--seed=99999999999999999999|orderly: --seed must be a whole number from -9223372036854775808 to"
                + " 9223372036854775807, was '99999999999999999999' (see orderly --help)",
        "--room=-3000000000|orderly: --room must be a whole number from -2147483648 to 2147483647, was"
                + " '-3000000000' (see orderly --help)",
        "--seed=12a|orderly: --seed must be a whole number, was '12a' (see orderly --help)"})
    void aWholeNumberOutOfRangeSaysTheRange(String option, String said) {
        CliRun o = CliRun.of(option);
        assertEquals(2, o.code(), o.err());
        assertEquals(said, o.line());
    }
}
