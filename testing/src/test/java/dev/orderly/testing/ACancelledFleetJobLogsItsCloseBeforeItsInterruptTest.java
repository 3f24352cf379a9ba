package dev.orderly.testing;

import static dev.orderly.testing.Tier2Event.Type.ADMITTED;
import static dev.orderly.testing.Tier2Event.Type.CLOSED;
import static dev.orderly.testing.Tier2Event.Type.DIALED;
import static dev.orderly.testing.Tier2Event.Type.INTERRUPTED;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A running {@link InMemoryFleet} job whose call is closed (the engine cancels a covered job, or the request's stop
 * closes every call) is cut short by that close: its log reads {@code ADMITTED, CLOSED, INTERRUPTED}, as
 * {@link ScriptedTier2} logs a cancelled job, and never {@code INTERRUPTED, CLOSED}, which is what a job whose thread
 * was interrupted, and whose call was closed only after, logs. The fleet woke the job before it logged the close, so
 * about half of the cancelled jobs were logged in the interrupted job's order: a test that asserts a cancelled job's
 * events, as it would with a ScriptedTier2, failed at random, and the log did not say what had happened.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ACancelledFleetJobLogsItsCloseBeforeItsInterruptTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 100, 1, 1);

    @Test
    void aRunningJobWhoseCallIsClosedLogsTheCloseFirst() throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().slotsPerInstance(2).jobTime(Duration.ofHours(1)).build();
        InMemoryFleet.Tenant tenant = fleet.tenant(PLAN);
        // Each round is one race (the job waking from its park against the close's log); on the old code about half
        // of them went the wrong way, so 50 rounds fail it for sure.
        for (long segment = 0; segment < 50; segment++) {
            JobKey key = new JobKey(segment, 0);
            Tier2Call call = tenant.client().dial(new Job("r-1", key, 1));
            Thread job = Thread.ofPlatform().start(() -> {
                try {
                    call.await();
                } catch (Exception expected) {
                    // cut short by the close
                }
            });
            try {
                // The job is running on its slot (parked for its job time) when its call is closed.
                await().atMost(Duration.ofSeconds(10)).until(() -> job.getState() == Thread.State.TIMED_WAITING
                        && LockSupport.getBlocker(job) == fleet);
                call.close();
                assertTrue(job.join(Duration.ofSeconds(10)), "the closed job ended");
            } finally {
                job.interrupt();
                job.join(Duration.ofSeconds(10));
            }
            assertEquals(List.of(DIALED, ADMITTED, CLOSED, INTERRUPTED), fleet.log().typesOf(key),
                    "segment " + segment + ": the close cut the job short");
        }
        assertEquals(0, fleet.busySlots());
    }
}
