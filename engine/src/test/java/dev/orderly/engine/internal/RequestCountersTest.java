package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.RequestResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The request's figures. The times are pinned between clock readings taken just before and just after each event,
 * with the clock moved on by a few milliseconds between events, so a time taken at the wrong event (or at the
 * wrong end of one) falls outside its bounds. Checking only {@code elapsed >= timeToFirstSegment} would let both be
 * wrong together.
 *
 * <p>A delivery in the clock tick the request started in (a segment read from the store at once, on a coarse clock)
 * is timed at zero, not taken for "nothing delivered yet": {@code -1}, not {@code 0}, means no delivery.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RequestCountersTest {

    private static final long GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /** A clock reading, and the waits that keep the events of a test apart in time. */
    private static long now() {
        return System.nanoTime();
    }

    private static void letTimePassSince(long reading) {
        await().pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(2))
                .until(() -> now() - reading > GAP_NANOS);
    }

    private static void assertBetween(long lowNanos, long highNanos, Duration actual, String what) {
        long nanos = actual.toNanos();
        assertTrue(nanos >= lowNanos && nanos <= highNanos,
                what + " was " + nanos + " ns, outside [" + lowNanos + ", " + highNanos + "]");
    }

    @Test
    void beforeAnyDeliveryElapsedIsTheTimeSoFarAndThereIsNoFirstSegment() {
        long beforeStart = now();
        RequestCounters counters = new RequestCounters();
        long afterStart = now();
        letTimePassSince(afterStart);

        long beforeRead = now();
        RequestResult result = counters.result();
        long afterRead = now();

        assertEquals(RequestResult.NO_FIRST_SEGMENT, result.timeToFirstSegment());
        assertEquals(java.util.Optional.empty(), result.firstSegment());
        assertBetween(beforeRead - afterStart, afterRead - beforeStart, result.elapsed(), "elapsed");
        assertEquals(0, result.segmentsDelivered());
    }

    @Test
    void timeToFirstSegmentIsTakenAtTheFirstDeliveryAndElapsedAtTheLast() {
        long beforeStart = now();
        RequestCounters counters = new RequestCounters();
        long afterStart = now();
        letTimePassSince(afterStart);

        long beforeFirst = now();
        counters.delivered(false);
        long afterFirst = now();
        letTimePassSince(afterFirst);

        long beforeLast = now();
        counters.delivered(true);
        long afterLast = now();
        letTimePassSince(afterLast);

        RequestResult result = counters.result();
        assertBetween(beforeFirst - afterStart, afterFirst - beforeStart, result.timeToFirstSegment(),
                "timeToFirstSegment");
        assertBetween(beforeLast - afterStart, afterLast - beforeStart, result.elapsed(), "elapsed");
        assertEquals(2, result.segmentsDelivered());
        assertEquals(result, counters.result(), "a second read of the same figures");
    }

    @Test
    void eachEventCountsInItsOwnFigure() {
        RequestCounters counters = new RequestCounters();
        for (int i = 0; i < 6; i++) {
            counters.dialAdmitted();
        }
        counters.dialNotAdmitted();
        for (int i = 0; i < 5; i++) {
            counters.refusal();
        }
        for (int i = 0; i < 4; i++) {
            counters.failure();
        }
        for (int i = 0; i < 3; i++) {
            counters.executionTimeout();
        }
        for (int i = 0; i < 2; i++) {
            counters.rerun();
        }
        counters.delivered(true);
        for (int i = 0; i < 3; i++) {
            counters.fromStore();
        }

        RequestResult result = counters.result();
        assertEquals(3, counters.foundInStore());
        assertEquals(1, result.segmentsDelivered());
        assertEquals(6, result.admissions());
        assertEquals(7, result.dials());
        assertEquals(5, result.refusals());
        assertEquals(4, result.failures());
        assertEquals(3, result.executionTimeouts());
        assertEquals(2, result.reruns());
    }

    @Test
    void jobsOnManyThreadsAtOnceLoseNoFigure() throws InterruptedException {
        RequestCounters counters = new RequestCounters();
        int threads = 8;
        int each = 10_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> jobs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            jobs.add(Thread.ofVirtual().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < each; i++) {
                    counters.dialNotAdmitted();
                    counters.refusal();
                    counters.failure();
                    counters.executionTimeout();
                }
            }));
        }
        go.countDown();
        for (Thread job : jobs) {
            job.join();
        }

        RequestResult result = counters.result();
        assertEquals((long) threads * each, result.dials());
        assertEquals((long) threads * each, result.refusals());
        assertEquals((long) threads * each, result.failures());
        assertEquals((long) threads * each, result.executionTimeouts());
    }

    @Test
    void aDeliveryInTheTickTheRequestStartedInIsTimedAtZero() {
        AtomicLong clock = new AtomicLong(500);
        RequestCounters counters = new RequestCounters(clock::get);
        counters.delivered(false);
        clock.addAndGet(7_000);
        counters.delivered(true);

        RequestResult result = counters.result();
        assertEquals(Duration.ZERO, result.timeToFirstSegment(), "a first delivery at zero is still the first");
        assertEquals(Duration.ofNanos(7_000), result.elapsed());
    }

    @Test
    void aOneSegmentRequestIsTimedAtItsOnlyDeliveryNotLater() {
        AtomicLong clock = new AtomicLong(500);
        RequestCounters counters = new RequestCounters(clock::get);
        clock.addAndGet(3_000);
        counters.delivered(true);
        clock.addAndGet(7_000);

        RequestResult result = counters.result();
        assertEquals(Duration.ofNanos(3_000), result.timeToFirstSegment());
        assertEquals(Duration.ofNanos(3_000), result.elapsed(), "the time to the last delivery, not the 10 us so far");
    }

    @Test
    void aLastDeliveryInTheTickTheRequestStartedInIsTimedAtZero() {
        AtomicLong clock = new AtomicLong(500);
        RequestCounters counters = new RequestCounters(clock::get);
        counters.delivered(true);
        clock.addAndGet(7_000);

        RequestResult result = counters.result();
        assertEquals(Duration.ZERO, result.timeToFirstSegment());
        assertEquals(Duration.ZERO, result.elapsed(), "the time to the last delivery, not the 7 us so far");
    }

    @Test
    void deliveriesBetweenTheFirstAndTheLastReadNoClock() {
        AtomicLong clock = new AtomicLong(0);
        AtomicInteger reads = new AtomicInteger();
        RequestCounters counters = new RequestCounters(() -> {
            reads.incrementAndGet();
            return clock.get();
        });
        assertEquals(1, reads.get(), "the start");
        clock.addAndGet(1_000);
        counters.delivered(false);
        assertEquals(2, reads.get(), "the first delivery");
        for (int i = 0; i < 5; i++) {
            clock.addAndGet(1_000);
            counters.delivered(false);
        }
        assertEquals(2, reads.get(), "five deliveries in between");
        clock.addAndGet(1_000);
        counters.delivered(true);
        assertEquals(3, reads.get(), "the last delivery");

        RequestResult result = counters.result();
        assertEquals(Duration.ofNanos(1_000), result.timeToFirstSegment());
        assertEquals(Duration.ofNanos(7_000), result.elapsed());
        assertEquals(7, result.segmentsDelivered());
    }

    @Test
    void beforeTheLastSegmentIsDeliveredElapsedRunsToNow() {
        AtomicLong clock = new AtomicLong(100);
        RequestCounters counters = new RequestCounters(clock::get);
        clock.addAndGet(2_000);
        counters.delivered(false);
        clock.addAndGet(2_000);
        counters.delivered(false);
        clock.addAndGet(5_000);

        RequestResult result = counters.result();
        assertEquals(Duration.ofNanos(2_000), result.timeToFirstSegment());
        assertEquals(Duration.ofNanos(9_000), result.elapsed());
        assertEquals(2, result.segmentsDelivered());
    }

    @Test
    void theFiguresSoFarRunToNowNotToTheLastDelivery() {
        AtomicLong clock = new AtomicLong(500);
        RequestCounters counters = new RequestCounters(clock::get);
        clock.addAndGet(1_000);
        counters.delivered(true);
        clock.addAndGet(7_000);

        RequestResult soFar = counters.resultSoFar();
        assertEquals(Duration.ofNanos(1_000), soFar.timeToFirstSegment());
        assertEquals(Duration.ofNanos(8_000), soFar.elapsed(), "to the end of the request, past the last delivery");
        assertEquals(Duration.ofNanos(1_000), counters.result().elapsed());
    }
}
