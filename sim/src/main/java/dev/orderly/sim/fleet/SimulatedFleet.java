package dev.orderly.sim.fleet;

import dev.orderly.api.JobKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A simulated tier2 fleet: {@code instances x slotsPerInstance} job slots behind a load balancer that sends every
 * dial to a random instance. An instance at its limit refuses the job at once, without running anything, exactly as a
 * real tier2 at its concurrent-request limit does; the job must dial again and may land anywhere.
 *
 * <p>Tenants (requests) reach the fleet through {@link #tenant(String, int)}: each gets its own {@link Tier2Client
 * client} and output store, and all of them compete for the same slots.
 *
 * <h2>Invariants (all guarded by {@code lock})</h2>
 * <ul>
 *   <li>{@code 0 <= inUse[i] <= slotsPerInstance} for every instance; a dial is admitted iff its instance had a free
 *       slot at that moment, and then takes it in the same critical section.
 *   <li>{@code busy} is the sum of {@code inUse}; {@code peakBusy} its maximum so far.
 *   <li>A slot is given back exactly once per admission ({@link SimulatedCall} releases it when the job ends or is
 *       closed, whichever comes first).
 * </ul>
 * Random decisions come from {@link FateDraws} outside the lock; the lock covers only slot accounting.
 *
 * <p>This class is thread-safe.
 *
 * @see dev.orderly.api.Tier2Client
 */
public final class SimulatedFleet implements TenantFleet {

    private final FleetConfig config;
    private final FateDraws draws;
    private final ReentrantLock lock = new ReentrantLock();

    // guarded by lock
    private final int[] inUse;
    // guarded by lock
    private final Map<String, Map<JobKey, Integer>> admissionsPerUnit = new HashMap<>();
    // guarded by lock
    private int busy;
    // guarded by lock
    private int peakBusy;
    // guarded by lock
    private long dials;
    // guarded by lock
    private long unreachable;
    // guarded by lock
    private long refused;
    // guarded by lock
    private long admitted;
    // guarded by lock
    private long cancelled;
    // guarded by lock
    private final long[] ended = new long[Fate.Outcome.values().length];

    /** A fleet with every slot free. */
    public SimulatedFleet(FleetConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.draws = new FateDraws(config);
        this.inUse = new int[config.instances()];
    }

    /** The configuration of this fleet. */
    public FleetConfig config() {
        return config;
    }

    /**
     * A client for one tenant's request. Its name feeds the random draws, so the same name meets the same run times
     * and faults in every run with the same seed.
     *
     * @param name the tenant's name, also used in the outputs it writes
     * @param stages the request's stages; the last one writes the output the client reads
     */
    @Override
    public SimulatedTier2 tenant(String name, int stages) {
        return new SimulatedTier2(this, name, stages);
    }

    /** A snapshot of what the fleet has done so far. */
    @Override
    public FleetStats stats() {
        lock.lock();
        try {
            return new FleetStats(dials, unreachable, refused, admitted, busy, peakBusy, cancelled, ended.clone());
        } finally {
            lock.unlock();
        }
    }

    FateDraws draws() {
        return draws;
    }

    /** Counts a dial whose job was cancelled as it arrived: it takes no slot and gets no answer. */
    void countCancelledDial() {
        lock.lock();
        try {
            dials++;
        } finally {
            lock.unlock();
        }
    }

    /** Counts a dial that found no healthy upstream. */
    void countUnreachable() {
        lock.lock();
        try {
            dials++;
            unreachable++;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes a slot on {@code instance} if it has one.
     *
     * @return the admission number of this unit for this tenant (from 1), or 0 if the instance is full
     */
    int tryAdmit(int instance, String tenant, JobKey key) {
        lock.lock();
        try {
            dials++;
            if (inUse[instance] >= config.slotsPerInstance()) {
                refused++;
                return 0;
            }
            inUse[instance]++;
            busy++;
            peakBusy = Math.max(peakBusy, busy);
            admitted++;
            return admissionsPerUnit.computeIfAbsent(tenant, t -> new HashMap<>()).merge(key, 1, Integer::sum);
        } finally {
            lock.unlock();
        }
    }

    /** Gives a slot back; called once per admission, with null as the outcome of a cancelled job. */
    void release(int instance, Fate.Outcome outcome) {
        lock.lock();
        try {
            if (inUse[instance] <= 0) {
                throw new IllegalStateException("instance " + instance + " released a slot it did not hold");
            }
            inUse[instance]--;
            busy--;
            if (outcome == null) {
                cancelled++;
            } else {
                ended[outcome.ordinal()]++;
            }
        } finally {
            lock.unlock();
        }
    }
}
