package dev.orderly.bench.cost;

import dev.orderly.api.Job;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * A tier2 whose jobs end the moment they are awaited: the last stage's job writes its segment's output (two bytes,
 * the segment's low bytes, which {@link dev.orderly.bench.scale.CheckingConsumer} checks) to the request's {@link InMemoryOutputStore}. With a
 * refusal rate above zero a dial is refused at random with that probability, before anything ran.
 *
 * <p>The engine and the hand-written executor dial the same class, so whatever it costs is in both figures. A refusal
 * throws one exception made up front: the figure is then the caller's cost of a refusal, not {@code
 * fillInStackTrace}'s.
 *
 * <p>This class is thread-safe.
 */
final class InstantTier2 implements Tier2Client {

    private static final Tier2Exception REFUSED = Tier2Exception.refused("instant tier2 refused at random");

    private final int lastStage;
    private final InMemoryOutputStore outputs;
    private final double refusalRate;
    private final LongAdder dials = new LongAdder();

    /**
     * @param lastStage the stage whose job writes the output
     * @param refusalRate the probability that a dial is refused, in {@code [0, 1)}
     */
    InstantTier2(int lastStage, InMemoryOutputStore outputs, double refusalRate) {
        if (!(refusalRate >= 0 && refusalRate < 1)) {
            throw new IllegalArgumentException("refusalRate must be in [0, 1), was " + refusalRate);
        }
        this.lastStage = lastStage;
        this.outputs = outputs;
        this.refusalRate = refusalRate;
    }

    @Override
    public Tier2Call dial(Job job) throws Tier2Exception {
        dials.increment();
        if (refusalRate > 0 && ThreadLocalRandom.current().nextDouble() < refusalRate) {
            throw REFUSED;
        }
        if (job.key().stage() != lastStage) {
            return () -> { };
        }
        long segment = job.key().segment();
        return () -> outputs.write(segment, new byte[] {(byte) segment, (byte) (segment >>> 8)});
    }

    /** Dials so far, refused ones included. */
    long dials() {
        return dials.sum();
    }
}
