package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Scheduler.rerun} under an engine-wide cap looks whether a place is free ({@code wouldWait}) and then takes it
 * ({@code take}), two holds of the cap's lock. Another request's owner that takes the last free place between them
 * leaves the re-run's {@code take} to fail (its request then waits in the fair-share queue), and rerun still said "no
 * withdrawal needed": the re-run of the segment the client waits for waited behind the other requests while a job of
 * its own request, of a later segment, kept a place nobody asked it to give up. The window is forced here by a
 * delegate whose {@code wouldWait} lets the other request take the place just after it answers.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AReRunWhosePlaceIsTakenBetweenItsLookAndItsTakeAsksForAWithdrawalTest {

    /** 10 segments of 1 stage, 2 workers. */
    private static final RequestPlan PLAN = new RequestPlan(0, 10, 1, 2);
    private static final UnitCounts ONE_DIAL = new UnitCounts(1, 0, 0, 1);

    /** Request a's permits; after the armed {@code wouldWait} answers, request b takes the last free place. */
    private static final class OvertakenAfterTheLook implements JobPermits {
        private final JobPermits mine;
        private final JobPermits other;
        volatile boolean armed;

        OvertakenAfterTheLook(JobPermits mine, JobPermits other) {
            this.mine = mine;
            this.other = other;
        }

        @Override
        public boolean wouldWait() {
            boolean wouldWait = mine.wouldWait();
            if (armed) {
                armed = false;
                assertTrue(other.take(), "the other request takes the free place");
            }
            return wouldWait;
        }

        @Override
        public boolean take() {
            return mine.take();
        }

        @Override
        public void awaitPermit() throws InterruptedException {
            mine.awaitPermit();
        }

        @Override
        public void withdraw() {
            mine.withdraw();
        }

        @Override
        public void release(boolean wantsAnother) {
            mine.release(wantsAnother);
        }

        @Override
        public void keep() {
            mine.keep();
        }

        @Override
        public void close() {
            mine.close();
        }
    }

    @Test
    void theReRunAsksAJobOfItsOwnToGiveItsPlaceUp() throws Exception {
        EngineJobCap cap = new EngineJobCap(2);
        JobPermits other = cap.join("b");
        OvertakenAfterTheLook permits = new OvertakenAfterTheLook(cap.join("a"), other);
        // A look-ahead of 2: with segments 0 and 1 launched, request a has nothing more to launch.
        Scheduler a = new Scheduler(PLAN, 2, false, permits);
        try {
            Launch zero = a.awaitNextJob();
            Launch one = a.awaitNextJob();
            assertEquals(new JobKey(1, 0), one.key());
            a.jobEnded(zero.key(), true, ONE_DIAL);
            assertEquals(1, cap.alive(), "segment 0's place is free: " + cap);

            permits.armed = true;
            // Segment 0's output is missing; the free place goes to request b just after the re-run looked.
            boolean withdrawalNeeded = a.rerun(0);
            assertEquals(2, cap.alive(), "request b holds the place the re-run saw free: " + cap);
            assertTrue(withdrawalNeeded, "no place is to be had for the re-run and segment 1's job of its own request"
                    + " holds one: a job must give it up, or the re-run waits behind request b: " + cap);

            // The walker has segment 1's job give its place up: the re-run gets it, ahead of any other request.
            a.jobWithdrawn(one.key(), ONE_DIAL);
            CompletableFuture<Launch> owner = SchedulerTest.inBackground(a::awaitNextJob);
            assertEquals(new JobKey(0, 0), SchedulerTest.result(owner, "the re-run", () -> ": " + cap).key(), "the re-run");
        } finally {
            a.stop();
            other.close();
        }
    }
}
