package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Two requests on one engine-wide cap, driven to where the client's re-run of request {@code a} waits for a place:
 * {@code a} launched a job on every place of the cap (segments 0 up), {@code b} waited, and got segment 0's place when
 * that job ended; segment 0's output then went missing with no place free (so {@code a.rerun(0)} asked a job of its
 * own to free one); {@code b} then asked for another place, and {@code a}'s owner for the re-run's.
 *
 * @param launched {@code a}'s launches, segment 0's first (ended)
 * @param bNext {@code b}'s owner waiting for its next place
 * @param owner {@code a}'s owner waiting for the re-run's place
 */
record ReRunBehindAFullCap(List<Launch> launched, CompletableFuture<Launch> bNext, CompletableFuture<Launch> owner) {

    static final UnitCounts ONE_DIAL = new UnitCounts(1, 0, 0, 1);

    static ReRunBehindAFullCap drive(EngineJobCap cap, Scheduler a, Scheduler b, int places) throws Exception {
        List<Launch> launched = new ArrayList<>();
        for (int i = 0; i < places; i++) {
            launched.add(a.awaitNextJob());
        }
        assertEquals(new JobKey(places - 1, 0), launched.get(places - 1).key());
        CompletableFuture<Launch> bFirst = SchedulerTest.inBackground(b::awaitNextJob);
        await().atMost(Duration.ofSeconds(5)).until(() -> cap.waiting() == 1);
        // Segment 0 ends; a has nothing to launch (its look-ahead is the cap), so its place goes to b.
        a.jobEnded(launched.get(0).key(), true, ONE_DIAL);
        assertEquals(new JobKey(0, 0), bFirst.get(5, TimeUnit.SECONDS).key());

        assertTrue(a.rerun(0), "no place is to be had: a job of its own must free one");
        CompletableFuture<Launch> bNext = SchedulerTest.inBackground(b::awaitNextJob);
        await().atMost(Duration.ofSeconds(5)).until(() -> cap.waiting() == 1);
        CompletableFuture<Launch> owner = SchedulerTest.inBackground(a::awaitNextJob);
        await().atMost(Duration.ofSeconds(5)).until(() -> cap.waiting() == 2);
        return new ReRunBehindAFullCap(List.copyOf(launched), bNext, owner);
    }
}
