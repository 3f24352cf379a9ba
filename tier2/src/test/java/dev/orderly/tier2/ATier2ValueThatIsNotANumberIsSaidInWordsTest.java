package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code Tier2Main --port=abc} said picocli's {@code Invalid value for option '--port': 'abc' is not an int}: Java's
 * type name, where the simulator's commands say {@code --port must be a whole number, was 'abc'}. Every bad value of
 * tier2 is now said in words, naming the option first, without picocli's "Invalid value for option"; a whole number
 * too large for the option says the range, as it is one.
 */
@Timeout(30)
class ATier2ValueThatIsNotANumberIsSaidInWordsTest {

    private static String refusal(String option) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=target/tier2-main-test", option},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertEquals("", out.toString());
        return err.toString().strip();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--port=abc|tier2: --port must be a whole number, was 'abc' (see --help)",
        "--max-concurrent=x|tier2: --max-concurrent must be a whole number, was 'x' (see --help)",
        "--health-port=8.5|tier2: --health-port must be a whole number, was '8.5' (see --help)",
        "--room=1e3|tier2: --room must be a whole number, was '1e3' (see --help)",
        "--port=99999999999|tier2: --port must be a whole number from -2147483648 to 2147483647, was '99999999999'"
                + " (see --help)"})
    void aValueThatIsNotAWholeNumberIsSaidInWords(String option, String said) {
        String line = refusal(option);
        assertEquals(said, line);
        assertFalse(line.contains("is not an int"), line);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"--drain-grace=abc|--drain-grace: 'abc' is not a duration",
        "--execution-timeout=1y|--execution-timeout: '1y' is not a duration"})
    void aBadDurationNamesTheOptionFirst(String option, String said) {
        String line = refusal(option);
        assertEquals(1, line.lines().count(), line);
        assertEquals("tier2: " + said, line.substring(0, ("tier2: " + said).length()), line);
        assertFalse(line.contains("Invalid value for option"), line);
    }
}
