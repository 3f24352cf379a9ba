package dev.orderly.bench.cost;

import static dev.orderly.bench.cost.EngineDirs.engineDir;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code EngineAB --requests=N} (N above 1) times {@link Runs#manyRequests}, whose tier2 refuses nothing; so {@code
 * --refusals=0.5} with it was accepted and then dropped without a word: the run printed "N requests at once" figures
 * of requests in which no dial was refused, and nothing said the rate asked for was not used. {@code --recording=true}
 * with {@code --requests} is refused as a bad argument (exit 2, named); a refusal rate must be too.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ARefusalRateWithManyRequestsIsNotDroppedWithoutAWordTest {

    @Test
    void aRefusalRateWithManyRequestsIsABadArgumentNamingBoth(@TempDir Path dir) throws Exception {
        String a = engineDir(dir, "a");
        String b = engineDir(dir, "b");

        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> parse("--requests=1000", "--refusals=0.5", a, b),
                "--refusals=0.5 --requests=1000 was accepted, and manyRequests refuses no dial");
        assertTrue(bad.getMessage().contains("--refusals") && bad.getMessage().contains("--requests"),
                bad.getMessage());
    }

    private static EngineAB.Options parse(String... args) {
        return EngineAB.Options.parse(args);
    }

    @Test
    void eitherAloneIsStillFine(@TempDir Path dir) throws Exception {
        String a = engineDir(dir, "a");
        String b = engineDir(dir, "b");

        assertDoesNotThrow(() -> parse("--requests=1000", a, b));
        assertDoesNotThrow(() -> parse("--requests=1000", "--refusals=0", a, b));
        assertDoesNotThrow(() -> parse("--refusals=0.5", a, b));
    }
}
