package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code orderly help} said {@code did you mean sweep?}, and {@code orderly -x} {@code did you mean -o?}: three edits
 * (one of one letter) were taken for a typo however short the word, so a word with nothing in common with a name got
 * it suggested. A name is now suggested only when at most half of the word's letters differ, as for the values of a
 * choice ({@code 'odered'}: {@code ordered}; {@code 'gcs'}: none).
 */
@Timeout(30)
class AWordFarFromEveryNameGetsNoSuggestionTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "help|orderly: unknown command or argument 'help' (see orderly --help)",
        "-x|orderly: unknown option '-x' (see orderly --help)",
        "swep|orderly: unknown command or argument 'swep'; did you mean sweep? (see orderly --help)",
        "--segmnts=3|orderly: unknown option '--segmnts'; did you mean --segments? (see orderly --help)"})
    void onlyAWordCloseToANameGetsItSuggested(String arg, String said) {
        CliRun o = CliRun.of(arg);
        assertEquals(2, o.code(), o.err());
        assertEquals(said, o.line());
    }
}
