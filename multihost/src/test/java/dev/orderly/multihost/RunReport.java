package dev.orderly.multihost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orderly.multihost.HostProcess.Line;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * What the tier1 host said about one run, checked: every segment exactly once, in order, with the bytes the tier2's
 * worker wrote (CRC32 and length), a {@code done} line, and no dial after the request's end. Also the figures the docs
 * quote: from the fault to the next delivery, the longest gap between deliveries after it, and the totals. Immutable.
 *
 * @param run the run's name
 * @param faultNanos when the fault began ({@link System#nanoTime()} of this JVM), or -1 for none
 * @param startNanos when the tier1 was started
 * @param deliveries the nanoTime at which each segment's line was read, by segment
 * @param done the tier1's closing figures: delivered, dials, refusals, failures, elapsed ms
 * @param doneNanos when the {@code done} line was read
 * @param dialsAfterEnd dials the tier1 saw after the request ended
 */
record RunReport(String run, long faultNanos, long startNanos, long[] deliveries, long[] done, long doneNanos,
                 long dialsAfterEnd) {

    /** Checks the tier1's lines of request {@code requestId} and sums them up; fails the test on any breach. */
    static RunReport check(String run, String requestId, List<Line> lines, long startNanos, long faultNanos) {
        List<Long> order = new ArrayList<>();
        long[] at = new long[Deployment.SEGMENTS];
        long[] done = null;
        long doneNanos = -1;
        Long late = null;
        for (Line l : lines) {
            String[] f = l.text().split(" ");
            switch (f[0]) {
                case "delivered" -> {
                    long segment = Long.parseLong(f[1]);
                    order.add(segment);
                    byte[] expected = Deployment.expectedOutput(requestId, segment);
                    CRC32 crc = new CRC32();
                    crc.update(expected);
                    assertEquals(Long.toHexString(crc.getValue()) + " " + expected.length, f[2] + " " + f[3],
                            run + ": checksum and length of segment " + segment);
                    if (segment >= 0 && segment < at.length) {
                        at[(int) segment] = l.nanos();
                    }
                }
                case "done" -> {
                    done = new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                            Long.parseLong(f[4]), Long.parseLong(f[5])};
                    doneNanos = l.nanos();
                }
                case "failed" -> fail(run + ": the request failed: " + l.text());
                case "dials-after-end" -> late = Long.parseLong(f[1]);
                default -> fail(run + ": unexpected line from the tier1: " + l.text());
            }
        }
        List<Long> expectedOrder = new ArrayList<>();
        for (long s = 0; s < Deployment.SEGMENTS; s++) {
            expectedOrder.add(s);
        }
        assertEquals(expectedOrder, order, run + ": every segment exactly once, in order");
        assertTrue(done != null, run + ": the tier1 said 'done'");
        assertEquals(Deployment.SEGMENTS, done[0], run + ": segments delivered in the result");
        assertTrue(late != null, run + ": the tier1 reported its dials after the end");
        assertEquals(0L, late, run + ": dials after the request ended");
        return new RunReport(run, faultNanos, startNanos, at, done, doneNanos, late);
    }

    /** From the fault to the first delivery after it, in ms; -1 without a fault or a later delivery. */
    long recoveredMs() {
        if (faultNanos < 0) {
            return -1;
        }
        long first = Long.MAX_VALUE;
        for (long t : deliveries) {
            if (t > faultNanos) {
                first = Math.min(first, t);
            }
        }
        return first == Long.MAX_VALUE ? -1 : (first - faultNanos) / 1_000_000;
    }

    /** The longest time without a delivery from the fault on (the fault itself counts as the start), in ms. */
    long longestGapAfterFaultMs() {
        if (faultNanos < 0) {
            return -1;
        }
        long previous = faultNanos;
        long longest = 0;
        for (long t : deliveries) {
            if (t > faultNanos) {
                longest = Math.max(longest, t - previous);
                previous = t;
            }
        }
        return longest / 1_000_000;
    }

    /** The segment the client had reached when the fault began. */
    long segmentsBeforeFault() {
        long n = 0;
        for (long t : deliveries) {
            if (t <= faultNanos) {
                n++;
            }
        }
        return n;
    }

    /** One line for the build log and the docs. */
    String summary() {
        StringBuilder s = new StringBuilder("[multihost] ").append(run).append(": ")
                .append(Deployment.SEGMENTS).append(" segments x ").append(Deployment.STAGES)
                .append(" stages delivered once each, in order, checksums right; ");
        if (faultNanos >= 0) {
            s.append("fault after ").append(segmentsBeforeFault()).append(" segments, recovered in ")
                    .append(recoveredMs()).append(" ms (longest gap after the fault ")
                    .append(longestGapAfterFaultMs()).append(" ms); ");
        }
        s.append("request ").append(done[4]).append(" ms (tier1 start to done ")
                .append((doneNanos - startNanos) / 1_000_000).append(" ms); dials ").append(done[1])
                .append(", refused/unreachable ").append(done[2]).append(", failed ").append(done[3])
                .append("; dials after the end ").append(dialsAfterEnd);
        return s.toString();
    }
}
