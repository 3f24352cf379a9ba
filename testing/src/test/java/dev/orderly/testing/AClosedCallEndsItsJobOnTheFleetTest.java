package dev.orderly.testing;

import static dev.orderly.testing.Tier2Event.Type.ADMITTED;
import static dev.orderly.testing.Tier2Event.Type.CLOSED;
import static dev.orderly.testing.Tier2Event.Type.DIALED;
import static dev.orderly.testing.Tier2Event.Type.INTERRUPTED;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: an {@code InMemoryFleet} job went on after its call was closed, though closing the call is what frees
 * its slot. A call closed before its job ended still wrote the job's output and logged {@code SUCCEEDED} after
 * {@code CLOSED} (with the default {@code jobTime} of zero, a cancelled job whose interrupt came before its
 * {@code await}), and a running job whose call was closed kept its thread parked for the rest of its
 * {@code jobTime}, a job running with no slot. A closed call now ends its job at once, as the scripted tier2's does:
 * {@code await} throws {@link InterruptedException}, and nothing is written.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AClosedCallEndsItsJobOnTheFleetTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 10, 2, 4);
    private static final JobKey LAST = new JobKey(3, 1);

    @Test
    void aCallClosedBeforeItsJobEndedWritesNoOutput() throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().build();
        InMemoryFleet.Tenant tenant = fleet.tenant(PLAN);
        Tier2Call call = tenant.client().dial(new Job("r-1", LAST, 1));
        call.close();
        assertThrows(InterruptedException.class, call::await);
        assertEquals(Optional.empty(), tenant.outputs().read(3), "a cancelled job wrote its output");
        assertEquals(List.of(DIALED, ADMITTED, CLOSED, INTERRUPTED), fleet.log().typesOf(LAST));
        assertEquals(0, fleet.busySlots());
    }

    @Test
    void aRunningJobEndsWhenItsCallIsClosed() throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().jobTime(Duration.ofHours(1)).build();
        InMemoryFleet.Tenant tenant = fleet.tenant(PLAN);
        Tier2Call call = tenant.client().dial(new Job("r-1", LAST, 1));
        AtomicReference<Throwable> ended = new AtomicReference<>();
        Thread job = Thread.ofPlatform().daemon().start(() -> {
            try {
                call.await();
                ended.set(new AssertionError("the job succeeded"));
            } catch (Throwable e) {
                ended.set(e);
            }
        });
        try {
            // closed whether the job thread is parked in await yet or not: either way its job must end
            call.close();
            assertTrue(job.join(Duration.ofSeconds(5)), "the job ran on after its call was closed");
            assertInstanceOf(InterruptedException.class, ended.get());
            assertEquals(Optional.empty(), tenant.outputs().read(3));
            await().atMost(Duration.ofSeconds(5)).until(() -> fleet.log().count(INTERRUPTED, LAST) == 1);
        } finally {
            job.interrupt();
            job.join(Duration.ofSeconds(5));
        }
    }
}
