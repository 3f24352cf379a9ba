/**
 * A simulated tier2 fleet that is a real {@link dev.orderly.api.Tier2Client} and {@link dev.orderly.api.OutputStore}:
 * {@code instances x slots}, a load balancer that sends each dial to a random instance, an instance at its limit
 * refusing at once, job durations from a distribution, faults by probability, and a time scale so a run takes seconds.
 */
package dev.orderly.sim.fleet;
