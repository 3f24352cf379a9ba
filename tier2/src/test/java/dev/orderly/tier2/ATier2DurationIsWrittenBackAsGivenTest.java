package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Regression: the tier2 launcher wrote a duration back in whole milliseconds when it refused one, so the value it
 * named was not the one given, and could contradict the rule beside it: {@code --drain-grace=-500us} was refused as
 * {@code --drain-grace must be >= 0, was 0s}, {@code --admission-wait=1.5ms} without a room as
 * {@code --admission-wait=1ms needs a waiting room}. (The simulator's commands had the same fault, fixed by
 * ADurationIsWrittenBackExactlyTest.) Each refusal now names the value as it was written.
 */
@Timeout(30)
class ATier2DurationIsWrittenBackAsGivenTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--drain-grace=-500us|tier2: --drain-grace must be >= 0, was -500us (see --help)",
        "--execution-timeout=-1.5ms|tier2: --execution-timeout must be > 0, was -1.5ms (see --help)",
        "--execution-timeout=-0.4ms|tier2: --execution-timeout must be > 0, was -0.4ms (see --help)",
        "--room=2 --admission-wait=-0.5ms|tier2: --admission-wait must be > 0, was -0.5ms (see --help)",
        "--admission-wait=1.5ms|tier2: --admission-wait=1.5ms needs a waiting room: give --room=N too (see --help)"})
    void theRefusalNamesTheValueAsWritten(String options, String said) {
        List<String> args = new ArrayList<>(List.of("--outputs=target/tier2-duration-test",
                "--worker=" + TestWorkers.Echo.class.getName()));
        args.addAll(List.of(options.split(" ")));
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(args.toArray(String[]::new), new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertEquals(said, err.toString().strip());
    }
}
