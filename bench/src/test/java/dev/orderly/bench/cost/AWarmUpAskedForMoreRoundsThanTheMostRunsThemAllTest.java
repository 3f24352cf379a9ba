package dev.orderly.bench.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --warmup=N} is "the least" number of warm-up rounds (bench/README.md, {@link EngineCost}, {@link EngineAB}):
 * a run asked for more warm-up rounds than {@link WarmUp#MAX_ROUNDS} stopped at {@link WarmUp#MAX_ROUNDS}, fewer
 * than asked, and printed it as a quiet warm-up.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AWarmUpAskedForMoreRoundsThanTheMostRunsThemAllTest {

    @Test
    void aQuietJitRunsEveryWarmUpRoundAskedForEvenAboveTheMost() throws Exception {
        int asked = WarmUp.MAX_ROUNDS + 20;
        int[] ran = {0};
        long[] now = {0};
        // Every round as long as the shortest warm-up, the JIT quiet in each.
        WarmUp.Done done = WarmUp.run(asked, () -> ran[0]++, () -> 0, () -> now[0] += WarmUp.MIN_NANOS);
        assertEquals(asked, ran[0], "warm-up rounds run, asked for " + asked);
        assertEquals(asked, done.rounds());
    }
}
