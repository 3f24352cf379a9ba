package dev.orderly.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
