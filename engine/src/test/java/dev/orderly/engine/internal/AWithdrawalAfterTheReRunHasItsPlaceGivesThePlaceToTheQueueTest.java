package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The re-run of the client's segment under an engine-wide job cap, with no place free: the walker has the request's
 * highest job that is not on a tier2 give its place up, and a withdrawal is reported only when that job next stops
 * (a dial ends first). Another job of the request that ends before that gives its place to the re-run (the
 * {@code rerunWantsAPlace} flag), and the re-run is launched. The withdrawn job's place then also stayed with the
 * request ({@code keep}), for a re-run that had its place already: two places kept for one re-run, the second one
 * relaunching the withdrawn unit while another request with fewer jobs waited (the guide: a freed place goes to the
 * waiting request with the fewest alive jobs). Once the re-run has its place, a withdrawn job's place goes to the
 * queue like any job's.
 *
 * <p>Two requests of 10 segments × 1 stage on a cap of 4: a holds segments 0 to 3; b waits with none and gets
 * segment 0's place as it ends. Segment 0's output is missing, no place is free: the walker withdraws segment 3's job.
 * Segment 1's job ends first (its place goes to the re-run), then segment 3's job reports its withdrawal.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AWithdrawalAfterTheReRunHasItsPlaceGivesThePlaceToTheQueueTest {

    /** 10 segments of 1 stage, 4 workers. */
    private static final RequestPlan PLAN = new RequestPlan(0, 10, 1, 4);

    @Test
    void theWithdrawnJobsPlaceGoesToTheRequestWithFewerJobs() throws Exception {
        EngineJobCap cap = new EngineJobCap(4);
        // A look-ahead of 4: with segments 0 to 3 launched, a has nothing more to launch.
        Scheduler a = new Scheduler(PLAN, 4, false, cap.join("a"));
        Scheduler b = new Scheduler(PLAN, 4, false, cap.join("b"));
        try {
            // The walker asks segment 3's job (not on a tier2, dialing) to give its place up for the re-run; it
            // reports the withdrawal when its dial ends.
            ReRunBehindAFullCap at = ReRunBehindAFullCap.drive(cap, a, b, 4);
            Launch three = at.launched().get(3);
            CompletableFuture<Launch> owner = at.owner();
            CompletableFuture<Launch> bSecond = at.bNext();

            // Segment 1's job ends first: its place goes to the re-run.
            a.jobEnded(at.launched().get(1).key(), true, ReRunBehindAFullCap.ONE_DIAL);
            assertEquals(new JobKey(0, 0), owner.get(5, TimeUnit.SECONDS).key(), "the re-run");
            assertEquals(3, cap.shares().get("a").held(), "a: the re-run, segments 2 and 3: " + cap.shares());
            assertEquals(1, cap.shares().get("b").held(), "b: segment 0: " + cap.shares());
            // a's owner asks again (segment 3's unit becomes launchable once withdrawn).
            CompletableFuture<Launch> ownerAgain = SchedulerTest.inBackground(a::awaitNextJob);

            // Segment 3's job reports its withdrawal: the re-run has its place, so this one is freed for the queue,
            // where b (1 job) comes before a (2 jobs left).
            a.jobWithdrawn(three.key(), ReRunBehindAFullCap.ONE_DIAL);
            try {
                assertEquals(new JobKey(1, 0), bSecond.get(5, TimeUnit.SECONDS).key());
            } catch (TimeoutException e) {
                throw new AssertionError("the place segment 3's withdrawal freed stayed with request a, whose re-run"
                        + " had its place already, while request b with fewer jobs waits: " + cap.shares()
                        + (ownerAgain.isDone() ? ", a relaunched " + ownerAgain.getNow(null) : ""), e);
            } catch (ExecutionException e) {
                throw new AssertionError("awaitNextJob threw", e.getCause());
            }
            assertEquals(2, cap.shares().get("a").held(), "a: the re-run and segment 2: " + cap.shares());
            assertEquals(2, cap.shares().get("b").held(), "b: segments 0 and 1: " + cap.shares());
        } finally {
            a.stop();
            b.stop();
        }
    }
}
