package dev.orderly.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: the fleet's log is "every dial and outcome, in order", but a dial was recorded after its slot was
 * taken and a close after its slot was freed, each outside the fleet's lock. Another thread's events could fall in
 * between, so the log showed an instance of one slot with two jobs admitted and none closed, or a dial refused by
 * an instance the log showed free. A test that checks its scheduler against the log (no instance over its slots)
 * failed for the kit's sake.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TheFleetsLogNeverShowsAnInstanceOverItsSlotsTest {

    private static final int THREADS = 4;
    private static final int DIALS_PER_THREAD = 20_000;

    @Test
    void replayingTheLogKeepsEveryInstanceWithinItsSlots() throws Exception {
        int slots = 1;
        InMemoryFleet fleet = InMemoryFleet.builder().instances(2).slotsPerInstance(slots).build();
        InMemoryFleet.Tenant tenant = fleet.tenant(new RequestPlan(0, 1_000_000, 1, 1));
        CyclicBarrier start = new CyclicBarrier(THREADS);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await(10, TimeUnit.SECONDS);
                    for (int i = 0; i < DIALS_PER_THREAD; i++) {
                        try (Tier2Call call = tenant.client().dial(
                                new Job("r-" + id, new JobKey((long) id * DIALS_PER_THREAD + i, 0), 1))) {
                            call.await();
                        } catch (Tier2Exception refused) {
                            // a full instance: expected
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(50));
        }
        assertEquals(null, failure.get());
        assertEquals(0, fleet.busySlots());

        Map<Integer, Integer> busy = new HashMap<>();
        List<String> breaks = new ArrayList<>();
        for (Tier2Event e : fleet.log().events()) {
            switch (e.type()) {
                case ADMITTED -> {
                    int now = busy.merge(e.instance(), 1, Integer::sum);
                    if (now > slots) {
                        breaks.add("#" + e.sequence() + " admitted to instance " + e.instance() + " with " + (now - 1)
                                + " of its " + slots + " slot(s) busy");
                    }
                }
                case CLOSED -> busy.merge(e.instance(), -1, Integer::sum);
                case REFUSED -> {
                    if (busy.getOrDefault(e.instance(), 0) < slots) {
                        breaks.add("#" + e.sequence() + " refused by instance " + e.instance() + " with only "
                                + busy.getOrDefault(e.instance(), 0) + " of its " + slots + " slot(s) busy");
                    }
                }
                default -> {
                }
            }
        }
        assertTrue(breaks.isEmpty(), breaks.size() + " events out of order with the slots, first: "
                + breaks.subList(0, Math.min(5, breaks.size())));
    }
}
