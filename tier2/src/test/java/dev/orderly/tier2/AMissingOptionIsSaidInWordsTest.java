package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Regression: {@code Tier2Main} with no {@code --outputs} said picocli's {@code Missing required option:
 * '--outputs=DIR|s3://BUCKET/PREFIX'}, and {@code --port} without its value {@code Missing required parameter for
 * option '--port' (N)}: the only refusals of the launcher not named option first, in its own words. An option given
 * twice said picocli's {@code option '--port' (N) should be specified only once}; it is worded as the simulator's
 * commands word it, by the one {@code ParameterMessages} both use.
 */
@Timeout(30)
class AMissingOptionIsSaidInWordsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '#', value = {
        "--max-concurrent=2#tier2: --outputs is required: --outputs=DIR|s3://BUCKET/PREFIX (see --help)",
        "--outputs=target/tier2-main-test --port#tier2: --port needs a value: --port=N (see --help)",
        "--outputs=target/tier2-main-test --port=1 --port=2#tier2: --port is given more than once; give it once"
                + " (see --help)"})
    void theOptionComesFirstWithHowToGiveIt(String args, String said) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(args.split(" "), new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertEquals("", out.toString());
        assertEquals(said, err.toString().strip());
    }
}
