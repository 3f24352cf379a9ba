package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A sweep list that is not a number ({@code --job-ratios=abc}, {@code --fullness=}) said {@code 'abc' is not a double}
 * in picocli's words: the messages for people looked at the option's type, a {@code List}, not at the type of its
 * elements. It now says what every other number option says: {@code must be a number, was 'abc'}.
 */
@Timeout(30)
class ASweepListThatIsNotANumberIsSaidInWordsTest {

    @ParameterizedTest(name = "sweep {0}")
    @CsvSource(delimiter = '|', value = {
        "--job-ratios=abc|--job-ratios must be a number, was 'abc'",
        "--job-ratios=5,x|--job-ratios must be a number, was 'x'",
        "--fullness=|--fullness must be a number, was ''",
        "--fullness=1,two|--fullness must be a number, was 'two'",
    })
    void theOptionAndTheBadElementAreNamedInWords(String arg, String expected) {
        CliRun o = CliRun.of("sweep", arg);
        assertEquals(2, o.code(), o.out() + o.err());
        assertEquals("", o.out(), "nothing ran");
        assertEquals("orderly: " + expected + " (see orderly sweep --help)", o.line());
    }
}
