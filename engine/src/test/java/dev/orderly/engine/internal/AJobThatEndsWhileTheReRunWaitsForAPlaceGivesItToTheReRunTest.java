package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The re-run of the client's segment under an engine-wide job cap, with every job of its request on a tier2 (none
 * can be withdrawn): the guide says the re-run keeps its precedence and the place given up for it stays with the
 * request, and a job that comes off its tier2 to redial gives its place to the re-run. A job of the request that
 * ended instead released its place to the fair-share queue, where another request waiting longer took it: the
 * client's re-run then waited for the request's next job to end (a whole tier2 job), while its own request had freed
 * a place. The place a job frees while the re-run waits for one now stays with the request, for the re-run.
 *
 * <p>Two requests of 10 segments × 1 stage on a cap of 3: a holds segments 0, 1 and 2; b waits with none and gets
 * segment 0's place as it ends. Segment 0's output is missing: no place is free and segments 1 and 2 are on a
 * tier2. b asks for another place, then a's owner for the re-run's; segment 1 ends.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AJobThatEndsWhileTheReRunWaitsForAPlaceGivesItToTheReRunTest {

    /** 10 segments of 1 stage, 3 workers. */
    private static final RequestPlan PLAN = new RequestPlan(0, 10, 1, 3);

    @Test
    void thePlaceFreedByTheRequestsOwnJobGoesToTheReRun() throws Exception {
        EngineJobCap cap = new EngineJobCap(3);
        // A look-ahead of 3: with segments 0, 1 and 2 launched, a has nothing more to launch.
        Scheduler a = new Scheduler(PLAN, 3, false, cap.join("a"));
        Scheduler b = new Scheduler(PLAN, 3, false, cap.join("b"));
        try {
            // Segments 1 and 2 are on a tier2: the walker finds none to withdraw for the re-run; the first to come
            // off its tier2, or to end, is to free a place.
            ReRunBehindAFullCap at = ReRunBehindAFullCap.drive(cap, a, b, 3);
            CompletableFuture<Launch> owner = at.owner();
            CompletableFuture<Launch> bSecond = at.bNext();

            // Segment 1's job of a ends: the place it frees is the one the client's re-run waits for.
            a.jobEnded(at.launched().get(1).key(), true, ReRunBehindAFullCap.ONE_DIAL);
            JobShares.Share aShare = cap.shares().get("a");
            assertFalse(aShare.waiting(), "the place segment 1 freed went to request b, while the client's re-run of"
                    + " request a waits for one behind segment 2 (a whole tier2 job): " + cap);
            assertEquals(new JobKey(0, 0), SchedulerTest.result(owner, "the re-run", () -> ": " + cap).key(), "the re-run");
            assertFalse(bSecond.isDone(), "b still waits for a place: " + cap);
        } finally {
            a.stop();
            b.stop();
        }
    }
}
