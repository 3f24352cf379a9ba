package dev.orderly.sim.run;

import java.util.List;

/**
 * What one tenant's request did in one run. Times are wall-clock nanoseconds from the start of the run; {@code -1}
 * means "did not happen". Immutable once built (the arrays are private copies; do not change them).
 *
 * @param tenant the tenant's name
 * @param strategy the tenant's strategy
 * @param jobs every job's trace
 * @param readyAt per segment, when its last-stage output was stored
 * @param deliveredAt per segment, when the client received it
 * @param delivered segments the client received
 * @param clientIdleNanos total time the client waited with nothing to read
 * @param dials dials sent
 * @param refusals dials refused or unreachable
 * @param admissions dials a tier2 took
 * @param failures jobs that got in and failed with a retryable error
 * @param executionTimeouts jobs that got in and ran past their deadline
 * @param fatal jobs that failed fatally
 * @param reruns segments re-run because their output was missing
 */
public record TenantRecord(String tenant, Strategy strategy, List<JobTrace> jobs, long[] readyAt, long[] deliveredAt,
                           long delivered, long clientIdleNanos, long dials, long refusals, long admissions,
                           long failures, long executionTimeouts, long fatal, long reruns) {

    /** Creates the record, copying the job list. */
    public TenantRecord {
        jobs = List.copyOf(jobs);
    }

    /** The number of segments of the request. */
    public int segments() {
        return deliveredAt.length;
    }

    /** When the first segment was delivered, or -1. */
    public long firstDeliveryAt() {
        return segments() == 0 ? -1 : deliveredAt[0];
    }

    /** When the last delivered segment was delivered, or -1 if none was. */
    public long lastDeliveryAt() {
        long last = -1;
        for (long t : deliveredAt) {
            last = Math.max(last, t);
        }
        return last;
    }

    /** The last job's end or segment's delivery, or -1 if there was neither: where a failed request ends. */
    public long lastEventAt() {
        return lastEventAt(jobs, deliveredAt);
    }

    static long lastEventAt(List<JobTrace> jobs, long[] deliveredAt) {
        long last = -1;
        for (JobTrace j : jobs) {
            last = Math.max(last, j.endedAt());
        }
        for (long d : deliveredAt) {
            last = Math.max(last, d);
        }
        return last;
    }
}
