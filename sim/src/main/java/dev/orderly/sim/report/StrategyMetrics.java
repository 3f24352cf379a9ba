package dev.orderly.sim.report;

import dev.orderly.sim.run.JobTrace;
import dev.orderly.sim.run.RunResult;
import dev.orderly.sim.run.TenantRecord;
import dev.orderly.sim.run.TenantResult;
import java.util.Arrays;
import java.util.List;

/**
 * The numbers of one row of the comparison table, for a group of tenants of one run (all of them, or the ordered or
 * unordered ones of a mixed run). Durations are simulated seconds.
 *
 * <ul>
 *   <li><b>first segment</b>: mean over the tenants of the time from the start to the first segment delivered;
 *   <li><b>mean delivery</b>: mean over every delivered segment of every tenant of the group of the time from the
 *       start to its delivery: how soon, on average, the client had its data;
 *   <li><b>delivery lag</b>: per segment, from the moment its output was ready (its last-stage job succeeded) to the
 *       moment its client received it, i.e. how long finished work sat behind a lower segment; p50, p90 and max over
 *       every segment of every tenant of the group;
 *   <li><b>client stall</b>: mean over the tenants of the total time the client waited with nothing to read;
 *   <li><b>total</b>: from the start until the group's last segment was delivered (or its last request ended);
 *   <li><b>dials, refusals, failures</b>: sums over the tenants (failures: jobs that got in and then failed, timed
 *       out or failed fatally); <b>dials/s</b>: dials divided by total.
 * </ul>
 *
 * @param label the row's name
 * @param tenants tenants in the group
 * @param firstSegment mean time to first segment
 * @param meanDelivery mean time from the start to a segment's delivery
 * @param lagP50 median delivery lag
 * @param lagP90 90th percentile of delivery lag
 * @param lagMax largest delivery lag
 * @param stall mean client stall
 * @param total time until the group was done
 * @param dials dials sent
 * @param refusals dials refused or unreachable
 * @param dialsPerSecond dials per simulated second on the fleet
 * @param failures jobs that got in and failed
 * @param reruns segments re-run for a missing output
 * @param failedRequests requests that did not deliver every segment
 */
public record StrategyMetrics(String label, int tenants, double firstSegment, double meanDelivery, double lagP50, double lagP90,
                              double lagMax, double stall, double total, long dials, long refusals,
                              double dialsPerSecond, long failures, long reruns, int failedRequests) {

    /** The metrics of {@code group}, tenants of {@code run}. */
    public static StrategyMetrics of(String label, RunResult run, List<TenantResult> group) {
        if (group.isEmpty()) {
            throw new IllegalArgumentException("a row needs at least one tenant");
        }
        double toSec = run.timeScale().factor() / 1e9;
        double firstSum = 0;
        int firstCount = 0;
        double stallSum = 0;
        double deliverySum = 0;
        long deliveries = 0;
        long end = 0;
        long dials = 0;
        long refusals = 0;
        long failures = 0;
        long reruns = 0;
        int failed = 0;
        int lagCount = 0;
        for (TenantResult t : group) {
            lagCount += t.record().segments();
        }
        double[] lags = new double[lagCount];
        lagCount = 0;
        for (TenantResult t : group) {
            TenantRecord r = t.record();
            if (r.firstDeliveryAt() >= 0) {
                firstSum += r.firstDeliveryAt() * toSec;
                firstCount++;
            }
            stallSum += r.clientIdleNanos() * toSec;
            end = Math.max(end, t.failure().isPresent() ? endOfFailed(r, run.wallNanos())
                    : Math.max(0, r.lastDeliveryAt()));
            dials += r.dials();
            refusals += r.refusals();
            failures += r.failures() + r.executionTimeouts() + r.fatal();
            reruns += r.reruns();
            if (t.failure().isPresent()) {
                failed++;
            }
            for (int s = 0; s < r.segments(); s++) {
                if (r.deliveredAt()[s] >= 0) {
                    deliverySum += r.deliveredAt()[s] * toSec;
                    deliveries++;
                }
                if (r.deliveredAt()[s] >= 0 && r.readyAt()[s] >= 0) {
                    lags[lagCount++] = Math.max(0, r.deliveredAt()[s] - r.readyAt()[s]) * toSec;
                }
            }
        }
        double[] sorted = Arrays.copyOf(lags, lagCount);
        Arrays.sort(sorted);
        double total = end * toSec;
        return new StrategyMetrics(label, group.size(),
                firstCount == 0 ? Double.NaN : firstSum / firstCount,
                deliveries == 0 ? Double.NaN : deliverySum / deliveries,
                percentile(sorted, 50), percentile(sorted, 90), sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1],
                stallSum / group.size(), total, dials, refusals, total > 0 ? dials / total : Double.NaN,
                failures, reruns, failed);
    }

    /**
     * When a failed request ended: the end of its last job (the engine ends every job of a request as it fails, and
     * the recorder closes the traces still open then) or its last delivery, whichever is later; {@code runEnd} if it
     * left neither. It was always the run's end, so the ordered tenant of a mixed run that failed after 5 s "failed
     * after" the 80 s the unordered tenants took.
     */
    private static long endOfFailed(TenantRecord r, long runEnd) {
        long last = r.lastEventAt();
        return last < 0 ? runEnd : last;
    }

    /** Nearest-rank percentile of sorted values; NaN when there are none. */
    static double percentile(double[] sorted, int p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
