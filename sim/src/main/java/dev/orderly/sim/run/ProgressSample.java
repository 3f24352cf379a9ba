package dev.orderly.sim.run;

/**
 * A moment of a run, summed over its tenants, for a progress display.
 *
 * @param run the run's name
 * @param simSeconds simulated seconds since the run started
 * @param delivered segments delivered to clients
 * @param totalSegments segments of all tenant requests
 * @param queued jobs waiting in launch queues before their first dial
 * @param dialing jobs that have dialed and not got in yet
 * @param running jobs running on the fleet
 * @param refusals dials refused or unreachable so far
 * @param fleetBusy slots in use on the fleet
 * @param fleetCapacity slots on the fleet
 */
public record ProgressSample(String run, double simSeconds, long delivered, long totalSegments, int queued,
                             int dialing, int running, long refusals, int fleetBusy, int fleetCapacity) {
}
