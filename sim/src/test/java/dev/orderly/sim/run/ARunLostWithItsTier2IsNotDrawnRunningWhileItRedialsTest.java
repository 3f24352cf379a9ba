package dev.orderly.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A tier2 that admitted a job and then says nothing ran (REFUSED or UNREACHABLE from the call's {@code await}: the
 * engine treats it as a refusal and dials again) left the job's trace running: the progress line counted it running
 * while it redialed, and the picture drew one run from the first admission to the end of the second, the second
 * admission lost. The lost run now ends as a failed run, and the job dials on in a trace of its own.
 */
@Timeout(5)
class ARunLostWithItsTier2IsNotDrawnRunningWhileItRedialsTest {

    @Test
    void theLostRunEndsAndTheRedialingJobIsCountedDialing() {
        TenantRecorder r = new TenantRecorder("t", Strategy.ORDERED, 4, 1, System.nanoTime());
        JobKey key = new JobKey(0, 0);
        r.onDial(new Job("t", key, 1));
        r.onAdmitted(new Job("t", key, 1));
        r.onRefused(new Job("t", key, 1), Tier2Exception.unreachable("the tier2 went away"));
        assertEquals(new TenantRecorder.Live(0, 0, 1, 0, 1), r.live(), "the job redials: dialing, not running");

        r.onDial(new Job("t", key, 2));
        r.onAdmitted(new Job("t", key, 2));
        r.onJobDone(new Job("t", key, 2));
        assertEquals(new TenantRecorder.Live(0, 0, 0, 0, 1), r.live());

        List<JobTrace> traces = r.snapshot(0).jobs();
        assertEquals(2, traces.size(), "the lost run and the one that did the job: " + traces);
        JobTrace lost = traces.get(0);
        JobTrace done = traces.get(1);
        assertEquals(JobTrace.Ending.FAILED, lost.ending());
        assertEquals(JobTrace.Ending.DONE, done.ending());
        assertTrue(lost.admittedAt() >= 0 && lost.endedAt() <= done.firstDialAt()
                && done.firstDialAt() <= done.admittedAt(), "the second run starts at its own admission: " + traces);
        assertEquals(1, lost.dials(), "one dial each: " + traces);
        assertEquals(1, done.dials(), "one dial each: " + traces);
    }
}
