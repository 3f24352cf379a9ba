package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A bad option ends the tier2 process with exit code 2 and one line naming the option and the value. */
@Timeout(30)
class Tier2MainTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--max-concurrent=0|--max-concurrent",
        "--port=70000|--port",
        "--retryable-rate=1.5|--retryable-rate",
        "--time-scale=0|--time-scale",
        "--stages=x|--stages",
        "--no-such-option|--no-such-option"})
    void badOptionExitsWithTwoAndOneLine(String option, String named) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=target/tier2-main-test", option},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(2, code);
        String message = err.toString().strip();
        assertEquals(1, message.lines().count(), message);
        assertTrue(message.contains(named), message);
        assertEquals("", out.toString());
    }

    @ParameterizedTest
    @CsvSource({"--max-concurrent=2"})
    void missingOutputsIsABadOption(String option) {
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {option}, new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(2, code);
        assertTrue(err.toString().contains("--outputs"), err.toString());
    }
}
