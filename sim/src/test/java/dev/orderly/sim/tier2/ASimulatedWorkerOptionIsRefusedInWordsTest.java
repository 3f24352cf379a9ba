package dev.orderly.sim.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.tier2.Tier2Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Regression: a tier2 run with the simulator's worker ({@code SimulatedWorkerProvider}, which
 * docs/guide/run-your-own-tier2.md names as the example of a provider with options) refused its options in picocli's
 * words, the ones the launcher's own options no longer use: {@code --stages=abc} was {@code Invalid value for option
 * '--stages': 'abc' is not an int}, {@code --stages} alone {@code Missing required parameter for option '--stages'
 * (N)}, {@code --seed=1 --seed=2} {@code option '--seed' (N) should be specified only once}, and a mistyped option
 * {@code Unknown option: '--stage=2'} with no suggestion. They are now said as the launcher says its own.
 */
@Timeout(30)
class ASimulatedWorkerOptionIsRefusedInWordsTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--stages=abc|tier2: --stages must be a whole number, was 'abc' (see --help)",
        "--job-spread=lots|tier2: --job-spread must be a number, was 'lots' (see --help)",
        "--stages|tier2: --stages needs a value: --stages=N (see --help)",
        "--seed=1 --seed=2|tier2: --seed is given more than once; give it once (see --help)",
        "--stage=2|tier2: unknown option '--stage'; did you mean --stages? (see --help)"})
    void theOptionIsRefusedInTheLaunchersWords(String options, String said) {
        StringWriter err = new StringWriter();
        String[] worker = options.split(" ");
        String[] args = new String[worker.length + 2];
        args[0] = "--outputs=" + dir.resolve("out");
        args[1] = "--worker=" + SimulatedWorkerProvider.class.getName();
        System.arraycopy(worker, 0, args, 2, worker.length);
        int code = Tier2Main.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertEquals(said, err.toString().strip());
    }
}
