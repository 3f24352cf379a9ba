package dev.orderly.sim.fleet;

/**
 * What a {@link SimulatedFleet} has done so far.
 *
 * @param dials every dial that reached the fleet, admitted or not
 * @param unreachable dials that found no healthy upstream
 * @param refused dials whose instance was at its limit
 * @param admitted dials that got a slot
 * @param busy slots in use now
 * @param peakBusy the most slots ever in use at once
 * @param cancelled admitted jobs closed before they ended (their request was cancelled)
 * @param endedByOutcome admitted jobs that have ended, indexed by {@link Fate.Outcome#ordinal()}
 */
public record FleetStats(long dials, long unreachable, long refused, long admitted, int busy, int peakBusy, long cancelled,
                         long[] endedByOutcome) {

    /** Admitted jobs that ended with {@code outcome}. */
    public long ended(Fate.Outcome outcome) {
        return endedByOutcome[outcome.ordinal()];
    }
}
