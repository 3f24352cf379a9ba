package dev.orderly.engine;

import dev.orderly.api.Job;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.SplittableRandom;

/**
 * A reproducible fault script: what a dial does depends only on the seed, the unit and the attempt, never on the
 * order in which threads happen to dial, so a failing seed replays the same faults.
 */
final class RandomFaults implements ScriptedTier2.DialRule {

    private final long seed;
    private final double faultRate;

    /** {@code faultRate} scales every kind of fault; 1.0 is the mix below. */
    RandomFaults(long seed, double faultRate) {
        this.seed = seed;
        this.faultRate = faultRate;
    }

    @Override
    public Script next(Job job) {
        SplittableRandom random = new SplittableRandom(
                seed * 0x9E3779B97F4A7C15L ^ job.key().segment() * 0xBF58476D1CE4E5B9L
                        ^ (long) job.key().stage() * 0x94D049BB133111EBL ^ job.attempt());
        double p = random.nextDouble() / faultRate;
        if (p < 0.15) {
            return Script.refuse(1);
        }
        if (p < 0.20) {
            return Script.unreachable(1);
        }
        if (p < 0.23) {
            return Script.throwOnDial(Tier2Exception.retryable("connection reset", null));
        }
        if (p < 0.27) {
            return Script.throwOnAwait(Tier2Exception.retryable("stream reset", null));
        }
        if (p < 0.29) {
            return Script.throwOnAwait(Tier2Exception.executionTimeout("deadline exceeded"));
        }
        if (p < 0.30) {
            return Script.loseOutput();
        }
        if (p < 0.303) {
            return Script.throwOnAwait(Tier2Exception.fatal("module panicked", null));
        }
        if (p < 0.305) {
            return Script.throwOnDial(new IllegalStateException("client bug"));
        }
        return Script.succeed();
    }
}
