package dev.orderly.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class TenantRecorderTest {

    private static Job job(long segment, int stage, int attempt) {
        return new Job("t", new JobKey(segment, stage), attempt);
    }

    private static Map<JobKey, JobTrace> traces(TenantRecorder r) {
        return r.snapshot(0).jobs().stream().collect(Collectors.toMap(JobTrace::key, Function.identity()));
    }

    @Test
    void aJobIsQueuedThenDialingThenRunningThenDoneAndTheLiveCountsFollow() {
        TenantRecorder r = new TenantRecorder("t", Strategy.ORDERED, 4, 1, System.nanoTime());
        r.onQueued(new JobKey(0, 0));
        assertEquals(new TenantRecorder.Live(0, 1, 0, 0, 0), r.live());
        r.onDial(job(0, 0, 1));
        r.onRefused(job(0, 0, 1), Tier2Exception.refused("full"));
        r.onDial(job(0, 0, 2));
        assertEquals(new TenantRecorder.Live(0, 0, 1, 0, 1), r.live());
        r.onAdmitted(job(0, 0, 2));
        assertEquals(new TenantRecorder.Live(0, 0, 0, 1, 1), r.live());
        r.onJobDone(job(0, 0, 2));
        assertEquals(new TenantRecorder.Live(0, 0, 0, 0, 1), r.live());
        JobTrace t = traces(r).get(new JobKey(0, 0));
        assertEquals(JobTrace.Ending.DONE, t.ending());
        assertEquals(2, t.dials());
        assertEquals(true, t.queuedAt() <= t.firstDialAt() && t.firstDialAt() <= t.admittedAt()
                && t.admittedAt() <= t.endedAt());
    }

    @Test
    void aJobStillWaitingWhenAHigherStageOfItsSegmentIsDoneEndsAsAbandoned() {
        TenantRecorder r = new TenantRecorder("t", Strategy.UNORDERED, 4, 3, System.nanoTime());
        r.onDial(job(2, 0, 1));
        r.onRefused(job(2, 0, 1), Tier2Exception.refused("full"));
        r.onDial(job(2, 2, 1));
        r.onAdmitted(job(2, 2, 1));
        r.onJobDone(job(2, 2, 1));
        assertEquals(JobTrace.Ending.ABANDONED, traces(r).get(new JobKey(2, 0)).ending());
        assertEquals(new TenantRecorder.Live(0, 0, 0, 0, 1), r.live());
    }

    @Test
    void aRunningJobIsNotAbandonedButTracesLeftWhenTheRequestEndsAre() {
        TenantRecorder r = new TenantRecorder("t", Strategy.UNORDERED, 4, 2, System.nanoTime());
        r.onDial(job(1, 0, 1));
        r.onAdmitted(job(1, 0, 1));
        r.onDial(job(3, 0, 1));
        r.onSegmentDelivered(1);
        assertEquals(new TenantRecorder.Live(0, 0, 1, 1, 0), r.live());
        r.requestEnded(false);
        assertEquals(JobTrace.Ending.CANCELLED, traces(r).get(new JobKey(1, 0)).ending());
        assertEquals(new TenantRecorder.Live(0, 0, 0, 0, 0), r.live());
    }

    /**
     * The timeline drew a running job that a higher stage covered as a dark-grey bar to the end of the request: the
     * recorder ignored {@code onAbandoned}, so the trace stayed open (and counted as running) until the request ended.
     */
    @Test
    void aRunningJobCoveredByAHigherStageEndsWhereTheEngineAbandonedItNotAtTheEndOfTheRequest() {
        long origin = System.nanoTime();
        TenantRecorder r = new TenantRecorder("t", Strategy.ORDERED, 4, 2, origin);
        r.onDial(job(2, 0, 1));
        r.onAdmitted(job(2, 0, 1));
        r.onDial(job(2, 1, 1));
        r.onAdmitted(job(2, 1, 1));
        r.onJobDone(job(2, 1, 1));
        assertEquals(new TenantRecorder.Live(0, 0, 0, 1, 0), r.live(), "the covered job still runs until stopped");

        r.onAbandoned(new JobKey(2, 0));
        long afterAbandon = System.nanoTime() - origin;

        assertEquals(new TenantRecorder.Live(0, 0, 0, 0, 0), r.live(), "an abandoned job no longer runs");
        JobTrace covered = r.snapshot(Long.MAX_VALUE).jobs().stream()
                .filter(t -> t.key().equals(new JobKey(2, 0))).findFirst().orElseThrow();
        assertEquals(JobTrace.Ending.ABANDONED, covered.ending());
        assertTrue(covered.endedAt() <= afterAbandon,
                "the trace must end when the engine abandoned the job, ended at " + covered.endedAt()
                        + " ns, abandoned by " + afterAbandon + " ns");
    }
}
