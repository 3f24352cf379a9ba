package dev.orderly.bench.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The warm-up ends when the JIT is quiet, and only then: at least the rounds asked for, then {@link
 * WarmUp#QUIET_ROUNDS} quiet rounds in a row, at most {@link WarmUp#MAX_ROUNDS}. The JIT's clock is fed by the test:
 * round {@code i} compiles {@code perRound[i]} ms.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class WarmUpTest {

    /** A JIT clock that advances by the next figure of {@code perRound} at each round's end. */
    private static final class ScriptedJit implements LongSupplier {
        private final long[] perRound;
        private int rounds;
        private long total;
        private boolean inRound;

        ScriptedJit(long... perRound) {
            this.perRound = perRound;
        }

        @Override
        public long getAsLong() {
            // Read once before each round and once after it.
            if (inRound) {
                total += rounds < perRound.length ? perRound[rounds] : 0;
                rounds++;
            }
            inRound = !inRound;
            return total;
        }
    }

    @Test
    void aQuietJitStillRunsTheRoundsAskedFor() throws Exception {
        int[] ran = {0};
        WarmUp.Done done = WarmUp.run(5, () -> ran[0]++, new ScriptedJit());
        assertEquals(5, ran[0]);
        assertEquals(new WarmUp.Done(5, true, 0), done);
    }

    @Test
    void aBusyJitKeepsTheWarmUpGoingUntilThreeRoundsInARowAreQuiet() throws Exception {
        int[] ran = {0};
        // Busy, busy, quiet, quiet, busy (a burst after quiet rounds), then three quiet ones.
        WarmUp.Done done = WarmUp.run(2, () -> ran[0]++, new ScriptedJit(500, 300, 5, 10, 180, 0, 20, 3));
        assertEquals(8, ran[0]);
        assertTrue(done.quiet());
        assertEquals(3, done.lastRoundCompileMillis());
    }

    @Test
    void aRoundAtTheQuietBoundIsQuietAndOneOverItIsNot() throws Exception {
        long q = WarmUp.QUIET_MILLIS;
        int[] ran = {0};
        WarmUp.run(0, () -> ran[0]++, new ScriptedJit(q + 1, q, q, q));
        assertEquals(4, ran[0]);
    }

    @Test
    void aJitThatNeverGoesQuietStopsTheWarmUpAtTheMost() throws Exception {
        long[] busy = new long[WarmUp.MAX_ROUNDS + 10];
        Arrays.fill(busy, 100);
        int[] ran = {0};
        WarmUp.Done done = WarmUp.run(1, () -> ran[0]++, new ScriptedJit(busy));
        assertEquals(WarmUp.MAX_ROUNDS, ran[0]);
        assertFalse(done.quiet());
        assertTrue(done.toString().contains("still compiling"), done.toString());
    }

    @Test
    void aFailingRoundEndsTheWarmUpWithItsException() {
        IOException broken = new IOException("side broke");
        IOException thrown = assertThrows(IOException.class, () -> WarmUp.run(3, () -> {
            throw broken;
        }, new ScriptedJit()));
        assertSame(broken, thrown);
    }

    @Test
    void aNegativeRoundCountIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WarmUp.run(-1, () -> { }, new ScriptedJit()));
        assertEquals("minRounds must be at least 0, was -1", e.getMessage());
    }
}
