package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code orderly --segments} and {@code orderly --segments=1 --segments=2} were refused in picocli's words
 * ({@code Missing required parameter for option '--segments' (N)}, {@code option '--segments' (N) should be
 * specified only once}), unlike every other refusal of the command, which names the option first. They now say it
 * the command's way.
 */
@Timeout(30)
class AnOptionWithoutItsValueIsSaidInWordsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '#', value = {
        "--segments#orderly: --segments needs a value: --segments=N (see orderly --help)",
        "fleet --store#orderly: --store needs a value: --store=file|s3 (see orderly fleet --help)",
        "--segments=1 --segments=2#orderly: --segments is given more than once; give it once (see orderly --help)"})
    void theOptionIsNamedFirstInTheCommandsWords(String args, String said) {
        CliRun o = CliRun.of(args.split(" "));
        assertEquals(2, o.code(), o.err());
        assertEquals(said, o.line());
    }
}
