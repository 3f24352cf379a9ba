package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.InMemoryOutputStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * engine-rules.md names the listener's call ("it passed while the RequestListener's onSegmentDelivered(40) ran") when
 * the listener is what was busy at the deadline, and the client ("the client still on segment 40") when the client
 * is. A deadline that passed when neither was, in the walker's own steps, named one of them all the same:
 * <ul>
 *   <li>passed after the client returned from segment 0 and before the listener was called (the counters, the
 *       scheduler's lock, which the jobs take too), with no listener set: "it passed while the RequestListener's
 *       onSegmentDelivered(0) ran". Forced with the deadline's test clock, which flips at the counters' first-delivery
 *       clock read.
 *   <li>passed while the walker waited for segment 1, which became ready after it: "segment 1 ready, the client still
 *       on segment 0", though the client had returned from segment 0 long before.
 * </ul>
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ADeadlinePassedInTheWalkersBookkeepingIsNotBlamedOnTheListenerTest {

    @Test
    void noListenerIsNamed() throws Exception {
        RequestPlan plan = new RequestPlan(0, 2, 1, 2);
        AtomicBoolean clientReturned = new AtomicBoolean();
        AtomicBoolean passed = new AtomicBoolean();
        long hour = Duration.ofHours(1).toNanos();
        Deadline deadline = Deadline.after(Duration.ofHours(1), () -> passed.get() ? 2 * hour : 0);
        RequestCounters counters = new RequestCounters(() -> {
            if (clientReturned.get()) {
                passed.set(true); // the deadline passes during the walker's bookkeeping after segment 0
            }
            return System.nanoTime();
        });
        Scheduler scheduler = new Scheduler(plan, 2);
        for (int i = 0; i < 2; i++) {
            Launch launch = scheduler.awaitNextJob();
            scheduler.jobEnded(launch.key(), true, new UnitCounts(1, 0, 0));
        }
        InMemoryOutputStore store = new InMemoryOutputStore();
        store.write(0, new byte[] {0});
        store.write(1, new byte[] {1});
        OutputWalker walker = new OutputWalker("r-bookkeeping", plan, store,
                (segment, output) -> clientReturned.set(segment == 0), scheduler, counters, RequestListener.NONE,
                deadline, false, unit -> null, () -> null);

        RequestFailedException e = assertThrows(RequestFailedException.class, walker::run);

        assertTrue(e.getMessage().contains("passed its deadline of 1h: 1 of 2 segments delivered"), e.getMessage());
        assertFalse(e.getMessage().contains("onSegmentDelivered"), e.getMessage());
        assertEquals(1, scheduler.reading());
    }

    @Test
    void aDeadlinePassedWhileTheWalkerWaitedIsNotBlamedOnTheClient() throws Exception {
        RequestPlan plan = new RequestPlan(0, 2, 1, 2);
        AtomicBoolean passed = new AtomicBoolean();
        long hour = Duration.ofHours(1).toNanos();
        Deadline deadline = Deadline.after(Duration.ofHours(1), () -> passed.get() ? 2 * hour : 0);
        Scheduler scheduler = new Scheduler(plan, 2);
        Launch first = scheduler.awaitNextJob();
        Launch second = scheduler.awaitNextJob();
        scheduler.jobEnded(first.key(), true, new UnitCounts(1, 0, 0));
        InMemoryOutputStore store = new InMemoryOutputStore();
        store.write(0, new byte[] {0});
        store.write(1, new byte[] {1});
        OutputWalker walker = new OutputWalker("r-waiting", plan, store, (segment, output) -> { }, scheduler,
                new RequestCounters(), RequestListener.NONE, deadline, false, unit -> null, () -> null);
        CompletableFuture<RequestFailedException> run = new CompletableFuture<>();
        Thread walking = Thread.ofPlatform().start(() -> {
            try {
                walker.run();
                run.complete(null);
            } catch (Throwable e) {
                run.complete(e instanceof RequestFailedException f ? f : new RequestFailedException("other", e));
            }
        });
        try {
            // segment 0 delivered, the walker waits for segment 1 (its wait is timed: the deadline is set)
            await().atMost(Duration.ofSeconds(10)).until(() -> scheduler.reading() == 1
                    && walking.getState() == Thread.State.TIMED_WAITING);
            passed.set(true);
            scheduler.jobEnded(second.key(), true, new UnitCounts(1, 0, 0));
            RequestFailedException e = run.get(10, TimeUnit.SECONDS);

            assertTrue(e != null && e.getMessage().contains("passed its deadline of 1h: 1 of 2 segments delivered"),
                    String.valueOf(e));
            assertFalse(e.getMessage().contains("the client still on segment 0"), e.getMessage());
            assertTrue(e.getMessage().contains("segment 1 ready, not yet handed to the client"), e.getMessage());
        } finally {
            scheduler.stop();
            walking.join(10_000);
        }
    }
}
