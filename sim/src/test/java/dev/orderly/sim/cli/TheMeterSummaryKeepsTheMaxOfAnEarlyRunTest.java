package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import io.micrometer.core.instrument.MockClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code --metrics} prints the meters once, after every run. A timer's max is Micrometer's decaying max (2 minutes by
 * default), so a run that ended a few minutes before the summary printed (the first of five runs of a larger scenario,
 * or of a slow machine) showed "count 1200 ... mean 500.00 ms  max 0.00 ms".
 */
class TheMeterSummaryKeepsTheMaxOfAnEarlyRunTest {

    @Test
    void aTimersMaxIsStillTheLargestRecordingWhenTheSummaryPrintsMinutesLater() throws Exception {
        MockClock clock = new MockClock();
        try (Observation observation = Observation.start(null, true, clock)) {
            RequestListener listener = observation.observer("ordered").apply(RequestListener.NONE);
            Job job = new Job("tenant-1", new JobKey(0, 0), 1);
            listener.onAdmitted(job);
            clock.add(Duration.ofMillis(500));
            listener.onJobDone(job);

            clock.add(Duration.ofMinutes(3)); // the later runs

            Observation.MeterLine line = observation.meters().stream()
                    .filter(m -> m.name().equals("orderly.job.duration")).findFirst().orElseThrow();
            assertEquals(1, line.count());
            assertEquals(500.0, line.totalMillis(), 1e-6);
            assertEquals(500.0, line.maxMillis(), 1e-6,
                    "the max of the run's one job, 500 ms, as printed: " + line.render(30));
        }
    }
}
