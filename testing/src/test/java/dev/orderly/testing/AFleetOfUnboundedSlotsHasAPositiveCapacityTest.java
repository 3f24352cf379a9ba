package dev.orderly.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Regression: {@code InMemoryFleet.capacity()} multiplied instances by slots in an {@code int}: a fleet that never
 * refuses ({@code slotsPerInstance(Integer.MAX_VALUE)}) on two instances had a capacity of -2, and the check the
 * class's own example makes, {@code peakBusySlots() <= capacity()}, failed for any load. It now saturates at
 * {@link Integer#MAX_VALUE}.
 */
class AFleetOfUnboundedSlotsHasAPositiveCapacityTest {

    @Test
    void theCapacityOfTwoUnboundedInstancesSaturates() {
        InMemoryFleet fleet = InMemoryFleet.builder().instances(2).slotsPerInstance(Integer.MAX_VALUE).build();
        assertEquals(Integer.MAX_VALUE, fleet.capacity());
    }

    @Test
    void aCapacityThatFitsIsTheProduct() {
        assertEquals(6, InMemoryFleet.builder().instances(2).slotsPerInstance(3).build().capacity());
    }
}
