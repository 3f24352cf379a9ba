package dev.orderly.sim.fleet;

import dev.orderly.api.JobKey;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * Every random decision of the fleet, derived from the seed and from <em>what</em> is decided, never from the order in
 * which threads happen to ask. So the same seed gives the same fleet in every run and for every strategy:
 * <ul>
 *   <li>a unit's run time depends only on (tenant, segment, stage): ordered and unordered launch do the same work;
 *   <li>the fate of an admitted job depends on (tenant, unit, n) for its n-th admission: both strategies meet the same
 *       faults;
 *   <li>whether a dial is unreachable and which instance the load balancer picks depend on (tenant, unit, attempt).
 * </ul>
 * This class is immutable and thread-safe.
 */
final class FateDraws {

    private static final long SALT_DIAL = 0x6469616cL;
    private static final long SALT_DURATION = 0x64757261L;
    private static final long SALT_FATE = 0x66617465L;
    /** An execution timeout holds its slot this many times the unit's run time: it ran until its deadline. */
    private static final double TIMEOUT_STRETCH = 2.0;

    private final FleetConfig config;

    FateDraws(FleetConfig config) {
        this.config = config;
    }

    /** The outcome of one dial before any instance is asked: null if it reaches the load balancer. */
    DialDraw dial(String tenant, JobKey key, int attempt) {
        SplittableRandom r = random(SALT_DIAL, tenant, key, attempt);
        boolean unreachable = r.nextDouble() < config.faults().unreachable();
        int instance = r.nextInt(config.instances());
        return new DialDraw(unreachable, instance);
    }

    /** The fate of the {@code admission}-th admission of {@code key}. */
    Fate admission(String tenant, JobKey key, int admission, boolean lastStage) {
        Duration runTime = runTime(tenant, key);
        SplittableRandom r = random(SALT_FATE, tenant, key, admission);
        FaultRates f = config.faults();
        double u = r.nextDouble();
        double failAt = 0.1 + 0.9 * r.nextDouble();
        if ((u -= f.executionTimeout()) < 0) {
            return new Fate(Fate.Outcome.EXECUTION_TIMEOUT, scale(runTime, TIMEOUT_STRETCH));
        }
        if ((u -= f.retryable()) < 0) {
            return new Fate(Fate.Outcome.RETRYABLE, scale(runTime, failAt));
        }
        if ((u -= f.fatal()) < 0) {
            return new Fate(Fate.Outcome.FATAL, scale(runTime, failAt));
        }
        if (lastStage && (u - f.outputMissing()) < 0) {
            return new Fate(Fate.Outcome.OUTPUT_MISSING, runTime);
        }
        return new Fate(Fate.Outcome.SUCCEEDED, runTime);
    }

    /** The run time of a unit: log-normal around the median job duration. */
    Duration runTime(String tenant, JobKey key) {
        SplittableRandom r = random(SALT_DURATION, tenant, key, 0);
        return scale(config.jobDuration(), Math.exp(config.jobSpread() * r.nextGaussian()));
    }

    private static Duration scale(Duration d, double by) {
        return Duration.ofNanos(Math.max(1, Math.round(d.toNanos() * by)));
    }

    private SplittableRandom random(long salt, String tenant, JobKey key, int counter) {
        long h = mix(config.seed() ^ salt);
        h = mix(h ^ tenant.hashCode());
        h = mix(h ^ key.segment());
        h = mix(h ^ ((long) key.stage() << 32 | (counter & 0xffffffffL)));
        return new SplittableRandom(h);
    }

    /** Stafford's variant 13 of the 64-bit finaliser: every input bit affects every output bit. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** One dial's draws. */
    record DialDraw(boolean unreachable, int instance) {
    }
}
