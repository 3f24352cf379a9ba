package dev.orderly.sim.fleet;

import dev.orderly.api.JobKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The simulated work of one admitted job, the same for the in-memory fleet and for a real tier2 process: how long it
 * runs and how it ends ({@link Fate}), drawn from the fleet's seed, job durations and fault rates, and the output a
 * last-stage job writes. This class is immutable and thread-safe.
 */
public final class SimulatedWork {

    private final FleetConfig config;
    private final FateDraws draws;

    /** The work of a fleet shaped by {@code config} (only its durations, faults, seed and time scale matter). */
    public SimulatedWork(FleetConfig config) {
        this.config = config;
        this.draws = new FateDraws(config);
    }

    /** The output a job of {@code tenant} writes for {@code segment}. */
    public static byte[] output(String tenant, long segment) {
        return (tenant + ":" + segment).getBytes(StandardCharsets.UTF_8);
    }

    /** The fate of the {@code admission}-th admission (from 1) of {@code key} for {@code tenant}. */
    public Fate fate(String tenant, JobKey key, int admission, boolean lastStage) {
        return draws.admission(tenant, key, admission, lastStage);
    }

    /** The wall-clock time a fate holds its slot. */
    public Duration wallTime(Fate fate) {
        return config.timeScale().toWall(fate.runFor());
    }

    /** Lets the fate's simulated run time pass on the calling thread; interruptible. */
    public void runFor(Fate fate) throws InterruptedException {
        config.timeScale().sleep(fate.runFor());
    }
}
