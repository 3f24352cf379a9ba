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
 * The warm-up ends when the JIT is quiet, and only then: at least the rounds asked for and {@link WarmUp#MIN_NANOS},
 * then {@link WarmUp#QUIET_ROUNDS} quiet rounds in a row, at most {@link WarmUp#MAX_ROUNDS} (once the shortest
 * warm-up has passed). The JIT's clock and the time are fed by the test: round {@code i} compiles {@code perRound[i]}
 * ms, and every round takes the same time ({@link #LONG_ROUNDS}, one round as long as the shortest warm-up, unless a
 * test says otherwise).
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

    /** A clock that advances by {@code roundNanos} at each read after the first (one read per round's end). */
    private static final class RoundClock implements LongSupplier {
        private final long roundNanos;
        private long now = -1;

        RoundClock(long roundNanos) {
            this.roundNanos = roundNanos;
        }

        @Override
        public long getAsLong() {
            now = now < 0 ? 1_000 : now + roundNanos;
            return now;
        }
    }

    private static final long LONG_ROUNDS = WarmUp.MIN_NANOS;
    private static final long SHORT_ROUNDS = TimeUnit.MILLISECONDS.toNanos(25);

    private static WarmUp.Done run(int minRounds, WarmUp.Round round, ScriptedJit jit) throws Exception {
        return WarmUp.run(minRounds, round, jit, new RoundClock(LONG_ROUNDS));
    }

    @Test
    void bugAWarmUpOfShortRoundsEndedBeforeTheJitReachedItsLastTier() throws Exception {
        // Rounds of 25 ms with the JIT quiet in each: three of them (75 ms) ended the warm-up, with code the JIT
        // compiles by time (queued for C2) not compiled yet. The warm-up now lasts MIN_NANOS whatever the count.
        int[] ran = {0};
        WarmUp.Done done = WarmUp.run(2, () -> ran[0]++, new ScriptedJit(), new RoundClock(SHORT_ROUNDS));
        assertEquals(WarmUp.MIN_NANOS / SHORT_ROUNDS, ran[0]);
        assertTrue(done.quiet());
    }

    @Test
    void aBusyJitWithShortRoundsRunsPastTheMostRoundsUntilTheShortestWarmUpHasPassed() throws Exception {
        long[] busy = new long[1_000];
        Arrays.fill(busy, 100);
        int[] ran = {0};
        WarmUp.Done done = WarmUp.run(1, () -> ran[0]++, new ScriptedJit(busy), new RoundClock(SHORT_ROUNDS));
        assertEquals(WarmUp.MIN_NANOS / SHORT_ROUNDS, ran[0]);
        assertTrue(ran[0] > WarmUp.MAX_ROUNDS, "the case tested: more rounds than the most");
        assertFalse(done.quiet());
    }

    @Test
    void aQuietJitStillRunsTheRoundsAskedFor() throws Exception {
        int[] ran = {0};
        WarmUp.Done done = run(5, () -> ran[0]++, new ScriptedJit());
        assertEquals(5, ran[0]);
        assertEquals(new WarmUp.Done(5, true, 0), done);
    }

    @Test
    void aBusyJitKeepsTheWarmUpGoingUntilThreeRoundsInARowAreQuiet() throws Exception {
        int[] ran = {0};
        // Busy, busy, quiet, quiet, busy (a burst after quiet rounds), then three quiet ones.
        WarmUp.Done done = run(2, () -> ran[0]++, new ScriptedJit(500, 300, 5, 10, 180, 0, 20, 3));
        assertEquals(8, ran[0]);
        assertTrue(done.quiet());
        assertEquals(3, done.lastRoundCompileMillis());
    }

    @Test
    void aRoundAtTheQuietBoundIsQuietAndOneOverItIsNot() throws Exception {
        long q = WarmUp.QUIET_MILLIS;
        int[] ran = {0};
        run(0, () -> ran[0]++, new ScriptedJit(q + 1, q, q, q));
        assertEquals(4, ran[0]);
    }

    @Test
    void aJitThatNeverGoesQuietStopsTheWarmUpAtTheMost() throws Exception {
        long[] busy = new long[WarmUp.MAX_ROUNDS + 10];
        Arrays.fill(busy, 100);
        int[] ran = {0};
        WarmUp.Done done = run(1, () -> ran[0]++, new ScriptedJit(busy));
        assertEquals(WarmUp.MAX_ROUNDS, ran[0]);
        assertFalse(done.quiet());
        assertTrue(done.toString().contains("still compiling"), done.toString());
    }

    @Test
    void aFailingRoundEndsTheWarmUpWithItsException() {
        IOException broken = new IOException("side broke");
        IOException thrown = assertThrows(IOException.class, () -> run(3, () -> {
            throw broken;
        }, new ScriptedJit()));
        assertSame(broken, thrown);
    }

    @Test
    void aNegativeRoundCountIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> run(-1, () -> { }, new ScriptedJit()));
        assertEquals("minRounds must be at least 0, was -1", e.getMessage());
    }
}
