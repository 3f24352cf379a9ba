package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The re-run of the client's segment under an engine-wide job cap with a place free when the walker asks for it:
 * {@code Scheduler.rerun} said "no withdrawal needed" (a place is free), and the place was left lying free until the
 * owner came round to take it. Another request's owner that asked in that moment took it, and the re-run then waited
 * for a place in the fair-share queue, behind the other requests, while its own request held a place in a job of a
 * later segment that nobody asked to give it up: the guide's "the re-run of the segment you wait for keeps its
 * precedence" was lost to a race. The re-run now holds the free place from the moment it is asked for.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AReRunThatFoundAPlaceFreeIsNotOvertakenByAnotherRequestTest {

    /** 10 segments of 1 stage, 2 workers. */
    private static final RequestPlan PLAN = new RequestPlan(0, 10, 1, 2);
    private static final UnitCounts ONE_DIAL = new UnitCounts(1, 0, 0, 1);

    @Test
    void theReRunKeepsThePlaceItFoundFree() throws Exception {
        EngineJobCap cap = new EngineJobCap(2);
        // A look-ahead of 2: with segments 0 and 1 launched, request a has nothing more to launch.
        Scheduler a = new Scheduler(PLAN, 2, false, cap.join("a"));
        Scheduler b = new Scheduler(PLAN, 2, false, cap.join("b"));
        Launch zero = a.awaitNextJob();
        Launch one = a.awaitNextJob();
        assertEquals(new JobKey(0, 0), zero.key());
        assertEquals(new JobKey(1, 0), one.key());
        a.jobEnded(zero.key(), true, ONE_DIAL);
        assertEquals(1, cap.alive(), "segment 0's place is free: " + cap);

        // Segment 0's output is missing: its re-run, with a worker and a place free, asks no job to give one up.
        assertFalse(a.rerun(0), "a worker and a place are free: no withdrawal");
        // Before a's owner comes round, b's owner asks for a place.
        CompletableFuture<Launch> otherOwner = SchedulerTest.inBackground(b::awaitNextJob);
        // It takes the free place, or waits for one: either way before a's owner asks.
        await().atMost(Duration.ofSeconds(5)).until(() -> otherOwner.isDone() || cap.waiting() == 1);
        CompletableFuture<Launch> owner = SchedulerTest.inBackground(a::awaitNextJob);
        try {
            Launch rerun = owner.get(5, TimeUnit.SECONDS);
            assertEquals(new JobKey(0, 0), rerun.key(), "the re-run of the client's segment");
        } catch (TimeoutException e) {
            throw new AssertionError("the re-run of the client's segment waits for a place the other request took"
                    + " after the re-run found it free, with segment 1's job of its own request holding one: " + cap
                    + (otherOwner.isDone() ? ", the other request launched " + otherOwner.getNow(null).key() : ""),
                    e);
        } catch (ExecutionException e) {
            throw new AssertionError("awaitNextJob threw", e.getCause());
        } finally {
            a.stop();
            b.stop();
        }
    }
}
