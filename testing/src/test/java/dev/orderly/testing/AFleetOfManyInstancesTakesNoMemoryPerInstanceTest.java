package dev.orderly.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code InMemoryFleet} kept an {@code int} per instance from {@code build()} on, so
 * {@code instances(Integer.MAX_VALUE)}, which the builder takes, failed at {@code build()} with
 * {@code OutOfMemoryError} (an array of two billion counters): a bound the builder neither said nor checked. The fleet
 * now counts the busy slots of the instances that have any, so any number of instances costs nothing up front.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AFleetOfManyInstancesTakesNoMemoryPerInstanceTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 10, 2, 4);

    @Test
    void aFleetOfIntegerMaxValueInstancesBuildsAndRuns() throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().instances(Integer.MAX_VALUE).build();
        assertEquals(Integer.MAX_VALUE, fleet.capacity());
        InMemoryFleet.Tenant tenant = fleet.tenant(PLAN);
        Tier2Call first = tenant.client().dial(new Job("r-1", new JobKey(0, 1), 1));
        Tier2Call second = tenant.client().dial(new Job("r-1", new JobKey(1, 1), 1));
        assertEquals(2, fleet.busySlots());
        first.await();
        first.close();
        second.close();
        assertEquals(0, fleet.busySlots());
        assertEquals(2, fleet.admissions());
        assertEquals(0, fleet.refusals());
    }
}
