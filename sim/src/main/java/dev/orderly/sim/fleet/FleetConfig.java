package dev.orderly.sim.fleet;

import java.time.Duration;
import java.util.Objects;

/**
 * The shape of a simulated fleet. Immutable.
 *
 * @param instances tier2 instances behind the load balancer, {@code >= 1}
 * @param slotsPerInstance concurrent jobs one instance runs before it refuses, {@code >= 1}
 * @param jobDuration the median simulated run time of a job, {@code > 0}
 * @param jobSpread the spread of run times: each unit runs {@code jobDuration * exp(jobSpread * z)} with {@code z}
 *     standard normal (a log-normal distribution, long right tail); 0 makes every job take {@code jobDuration}
 * @param faults the probability of each injected fault
 * @param seed the seed every random draw derives from
 * @param timeScale how fast simulated time runs
 */
public record FleetConfig(int instances, int slotsPerInstance, Duration jobDuration, double jobSpread,
                          FaultRates faults, long seed, TimeScale timeScale) {

    /**
     * @throws IllegalArgumentException naming the field and the value when one is out of range
     * @throws NullPointerException naming the field that is null
     */
    public FleetConfig {
        Objects.requireNonNull(jobDuration, "jobDuration");
        Objects.requireNonNull(faults, "faults");
        Objects.requireNonNull(timeScale, "timeScale");
        if (instances < 1) {
            throw new IllegalArgumentException("instances must be >= 1, was " + instances);
        }
        if (slotsPerInstance < 1) {
            throw new IllegalArgumentException("slots per instance must be >= 1, was " + slotsPerInstance);
        }
        if (!jobDuration.isPositive()) {
            throw new IllegalArgumentException("job duration must be > 0, was " + jobDuration);
        }
        if (!(jobSpread >= 0 && jobSpread <= 3)) {
            throw new IllegalArgumentException("job spread must be between 0 and 3, was " + jobSpread);
        }
    }

    /** The number of jobs the whole fleet runs at once: {@code instances * slotsPerInstance}. */
    public int capacity() {
        return instances * slotsPerInstance;
    }
}
