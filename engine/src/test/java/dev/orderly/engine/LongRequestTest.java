package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A long request runs in the heap of a short one: the engine keeps state for the look-ahead window only.
 *
 * <p>The request's length comes from {@code -Dorderly.longRequest.segments} (default 200,000, which takes seconds);
 * the README's 10,000,000-segment figure comes from running this test with that property and a small {@code -Xmx}.
 * The used heap after a full GC is sampled at 10% and at 90% of the request; state that grew with the request (even a
 * few bytes per segment) would show as the difference between the two.
 */
class LongRequestTest {

    private static final byte[] OUTPUT = {42};
    private static final long MB = 1024 * 1024;

    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void aLongRequestWithAnInstantFleetRunsInBoundedHeap() throws Exception {
        runInBoundedHeap(false, segment -> Optional.of(OUTPUT));
    }

    /**
     * Resume: two segments in three are already in the store, the third is not until its job has run (the store
     * answers empty to the first look-up of such a segment, then has it). The look-ups must cost no memory that grows
     * with the request either.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void aLongResumedRequestRunsInBoundedHeap() throws Exception {
        java.util.Set<Long> lookedUp = java.util.concurrent.ConcurrentHashMap.newKeySet();
        runInBoundedHeap(true, segment -> segment % 3 != 0 || !lookedUp.add(segment) && lookedUp.remove(segment)
                ? Optional.of(OUTPUT) : Optional.empty());
    }

    private static void runInBoundedHeap(boolean resume, dev.orderly.api.OutputStore store) throws Exception {
        long segments = Long.getLong("orderly.longRequest.segments", 200_000);
        RequestPlan plan = new RequestPlan(0, segments, 2, 8);
        Tier2Call done = () -> { };
        Tier2Client instant = job -> done;
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long[] heapAt = new long[2];
        long[] next = {0};
        long early = segments / 10;
        long late = segments - segments / 10;

        RequestResult result = Orderly.engine(Fixtures.fast()).run(Request.of(plan, instant, store,
                (segment, output) -> {
                    if (segment != next[0]++) {
                        throw new AssertionError("segment " + segment + " delivered, expected " + (next[0] - 1));
                    }
                    if (segment == early || segment == late) {
                        System.gc();
                        heapAt[segment == early ? 0 : 1] = memory.getHeapMemoryUsage().getUsed();
                    }
                }).withResume(resume));

        assertEquals(segments, result.segmentsDelivered());
        if (resume) {
            // Each missing segment is run by one or two jobs (its stage 0 may run before stage 1 may); none other.
            long missing = (segments + 2) / 3;
            assertTrue(result.dials() >= missing && result.dials() <= 2 * missing,
                    result.dials() + " dials for " + missing + " segments not in the store");
        }
        long growth = heapAt[1] - heapAt[0];
        System.out.printf("long request (resume " + resume + "): %,d segments in %,d ms; used heap after GC at 10%%: %,d KB, at 90%%: %,d KB"
                + " (growth %,d KB); max heap %,d MB%n", segments, result.elapsed().toMillis(), heapAt[0] / 1024,
                heapAt[1] / 1024, growth / 1024, Runtime.getRuntime().maxMemory() / MB);
        assertTrue(growth < 4 * MB, "used heap grew by " + growth / 1024 + " KB between 10% and 90% of the request");
    }
}
