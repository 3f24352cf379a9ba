package dev.orderly.bench.cost;

import static dev.orderly.bench.cost.EngineDirs.engineDir;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code EngineCost --workers=600000} (or {@code --small-workers}) passed the option check ("between 1 and
 * 2147483647") and then ended in a stack trace and exit code 1, the code of a run that delivered less than every
 * segment: {@code Engine.run} refuses a look-ahead ({@code 2 × workers} with the default config) over 2^20 segments,
 * as its javadoc says. {@code EngineAB} the same, for {@code --workers} and for {@code --stages} over 65,536
 * ("EngineAB: a run failed" and a stack trace). A value the engine is documented to refuse is a bad argument: named,
 * exit code 2, no stack trace.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AWorkerCountTheEngineRefusesIsABadArgumentNotAStackTraceTest {

    /** EngineCost's option check, as main calls it. */
    private static void engineCostOption(String arg) {
        EngineCost.parseOption(arg, new HashMap<>(Map.of("workers", "100", "small-workers", "10")));
    }

    @Test
    void engineCostRefusesWorkersWhoseLookAheadTheEngineRefuses() throws Exception {
        for (String name : new String[] {"workers", "small-workers"}) {
            IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                    () -> engineCostOption("--" + name + "=600000"),
                    "--" + name + "=600000 accepted; Engine.run refuses its look-ahead of 1,200,000");
            assertTrue(bad.getMessage().contains("--" + name), bad.getMessage());
            assertDoesNotThrow(() -> engineCostOption("--" + name + "=524288"), "2 x 524,288 = 2^20 is allowed");
        }
    }

    @Test
    void engineAbRefusesWorkersAndStagesTheEngineRefuses(@TempDir Path dir) throws Exception {
        String a = engineDir(dir, "a");
        String b = engineDir(dir, "b");
        for (String arg : new String[] {"--workers=600000", "--stages=65537"}) {
            IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                    () -> EngineAB.Options.parse(new String[] {arg, a, b}), arg + " accepted; Engine.run refuses it");
            assertTrue(bad.getMessage().contains(arg.substring(0, arg.indexOf('='))), bad.getMessage());
        }
        assertDoesNotThrow(() -> EngineAB.Options.parse(new String[] {"--workers=524288", "--stages=65536", a, b}));
    }
}
