package dev.orderly.sim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.JobKey;
import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.run.JobTrace;
import dev.orderly.sim.run.Strategy;
import dev.orderly.sim.run.TenantRecord;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A run shorter than half a simulated second (jobs of 20 ms) got a time axis whose ticks, 0.01 s apart, were all
 * written with one decimal: "0, 0.0, 0.0, 0.0, 0.0, 0.1, 0.1".
 */
class ATimelineOfAShortRunLabelsEveryTickWithItsOwnTimeTest {

    private static final long MS = 1_000_000L;

    @Test
    void theTicksOfAShortRunAreDistinctAndSayTheirTime() {
        // 3 segments of a 20 ms job each, one after the other: the run lasts 60 ms (simulated, at scale 1).
        long[] ready = {20 * MS, 40 * MS, 60 * MS};
        List<JobTrace> jobs = new ArrayList<>();
        for (int s = 0; s < ready.length; s++) {
            jobs.add(new JobTrace(new JobKey(s, 0), -1, ready[s] - 20 * MS, ready[s] - 20 * MS, ready[s],
                    JobTrace.Ending.DONE, 1));
        }
        TenantRecord tenant = new TenantRecord("tenant-1", Strategy.ORDERED, jobs, ready.clone(), ready.clone(), 3,
                0, 3, 0, 3, 0, 0, 0, 0);
        String svg = new TimelineSvg("short", List.of(new TimelineSvg.Panel("ordered: tenant-1 of 1", tenant)), 1,
                TimeScale.REAL_TIME).render();

        // The time axis' labels: centred numbers under the plot.
        Matcher m = Pattern.compile("text-anchor=\"middle\">([0-9.]+)</text>").matcher(svg);
        List<String> labels = new ArrayList<>();
        while (m.find()) {
            labels.add(m.group(1));
        }
        assertEquals(labels.size(), new LinkedHashSet<>(labels).size(),
                "every tick of the time axis has a label of its own, were " + labels);
        for (String label : labels) {
            double t = Double.parseDouble(label);
            assertEquals(0, Math.round(t * 1000) % 10, "a tick is at a whole number of hundredths, was " + label);
        }
        assertEquals("0.01", labels.get(1), "the second tick, 0.01 s, says so; the labels were " + labels);
    }
}
