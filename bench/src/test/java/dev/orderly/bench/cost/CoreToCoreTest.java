package dev.orderly.bench.cost;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CoreToCoreTest {

    @Test
    void aRoundTripTakesTimeAndLeavesNoThreadBehind() throws InterruptedException {
        double ns = CoreToCore.roundTripNanos(1_000);
        assertTrue(ns > 0 && Double.isFinite(ns), "round trip " + ns + " ns");
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals("core-to-core")),
                "the answering thread has ended");
    }

    @Test
    void theLineSaysWhatItMeasured() {
        String line = CoreToCore.now();
        assertTrue(line.matches("cross-core round trip \\d+ ns \\(\\d+-\\d+ over 5 runs of 100,000\\)"), line);
    }

    @Test
    void noRoundTripIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> CoreToCore.roundTripNanos(0));
    }
}
