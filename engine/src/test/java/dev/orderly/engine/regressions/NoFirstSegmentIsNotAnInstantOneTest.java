package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 19, defect 10: {@code timeToFirstSegment} was {@code PT0S} when nothing was delivered, which reads as an
 * instant first segment; and a failed request's {@code elapsed} stopped at its last delivery, not at the failure.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NoFirstSegmentIsNotAnInstantOneTest {

    @Test
    void aRequestThatDeliveredNothingHasNoFirstSegment() {
        RequestPlan plan = new RequestPlan(0, 2, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write,
                job -> Script.throwOnDial(Tier2Exception.fatal("module panicked", null)));

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(plan, tier2, store, new RecordingClient())));

        RequestResult partial = e.partialResult().orElseThrow();
        assertEquals(0, partial.segmentsDelivered());
        assertEquals(Optional.empty(), partial.firstSegment(), partial.toString());
        assertEquals(RequestResult.NO_FIRST_SEGMENT, partial.timeToFirstSegment());
        assertNotEquals(Duration.ZERO, partial.timeToFirstSegment());
    }

    @Test
    void aFailedRequestsElapsedRunsToTheFailure() {
        RequestPlan plan = new RequestPlan(0, 2, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch firstDelivered = new CountDownLatch(1);
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> {
            if (job.key().segment() == 0) {
                return Script.succeed();
            }
            // Segment 1 fails at least 100 ms after segment 0 was delivered.
            if (!firstDelivered.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("segment 0 never delivered");
            }
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            while (System.nanoTime() < until) {
                LockSupport.parkNanos(until - System.nanoTime());
            }
            return Script.throwOnDial(Tier2Exception.fatal("module panicked", null));
        });

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(plan, tier2, store, (segment, output) -> firstDelivered.countDown())));

        RequestResult partial = e.partialResult().orElseThrow();
        assertEquals(1, partial.segmentsDelivered());
        Duration first = partial.firstSegment().orElseThrow();
        assertTrue(partial.elapsed().minus(first).compareTo(Duration.ofMillis(50)) >= 0,
                "elapsed " + partial.elapsed() + " stops at the last delivery " + first + ", not at the failure");
    }
}
