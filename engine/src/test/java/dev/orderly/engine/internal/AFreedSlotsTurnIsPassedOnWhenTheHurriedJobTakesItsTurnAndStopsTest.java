package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.LaunchQueue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code slotFreed()} lets the window's first refused job dial at once. In the engine that job is mostly the lower stage
 * the ended job covers: (1, 1) ends, hurries the refused (1, 0), and only then is marked done and cancels (1, 0). A
 * (1, 0) whose thread takes its turn before that cancel reaches it finds its unit no longer needed and stops without
 * dialing: the turn the freed slot gave it went nowhere, and the next refused job of the window sat out its whole
 * refused delay (30 s here) with the tier2's slot idle. Two real job runners on a real launch queue (window 10); every
 * dial is refused. The second test is the same one step later: (1, 0) still finds its unit needed, and only then, before
 * its dial starts, does (1, 1)'s cancel reach it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AFreedSlotsTurnIsPassedOnWhenTheHurriedJobTakesItsTurnAndStopsTest {

    private static final JobKey COVERED = new JobKey(1, 0);
    private static final JobKey NEXT = new JobKey(2, 0);
    private static final EngineConfig CONFIG = EngineConfig.builder().refusedDelay(Duration.ofSeconds(30))
            .failureDelay(Duration.ofSeconds(30)).build();

    private final LaunchQueue queue = new LaunchQueue(10, CONFIG);
    private final List<String> dials = new CopyOnWriteArrayList<>();
    private final Tier2Client refusesAll = job -> {
        dials.add(job.key().segment() + "/" + job.key().stage() + "#" + job.attempt());
        throw Tier2Exception.refused("full");
    };
    private final RunningJobs running = new RunningJobs(16, 4);

    private Thread start(JobKey key, Predicate<JobKey> needed, CompletableFuture<JobRunner.Outcome> outcome) {
        JobRunner runner = new JobRunner("r-turn", 0, refusesAll, queue, CONFIG, new RequestCounters(),
                RequestListener.NONE, needed, new StallWatch("r-turn", Duration.ofSeconds(30)), () -> 1);
        return Thread.ofPlatform().name("job-" + key.segment()).start(() -> {
            JobHandle handle = running.start(key);
            try {
                outcome.complete(runner.run(key, new UnitCounts.Tally(UnitCounts.NONE), handle));
            } catch (Throwable t) {
                outcome.completeExceptionally(t);
            } finally {
                running.end(handle);
            }
        });
    }

    @Test
    void theEarlyTurnOfAHurriedJobThatStopsAfterTakingItGoesToTheNextRefusedJob() throws Exception {
        AtomicBoolean coveredNeeded = new AtomicBoolean(true);
        CompletableFuture<JobRunner.Outcome> covered = new CompletableFuture<>();
        CompletableFuture<JobRunner.Outcome> next = new CompletableFuture<>();
        Thread coveredThread = start(COVERED, key -> coveredNeeded.get(), covered);
        Thread nextThread = start(NEXT, key -> true, next);
        try {
            // Both refused once, each sitting out its 30 s refused delay in the window.
            await().atMost(Duration.ofSeconds(5)).until(() -> dials.containsAll(List.of("1/0#1", "2/0#1"))
                    && coveredThread.getState() == Thread.State.TIMED_WAITING
                    && nextThread.getState() == Thread.State.TIMED_WAITING);
            // (1, 1) is done: (1, 0) is no longer needed, and the cancel is yet to reach its thread. (1, 1) ended on
            // its tier2 first: its slot is free, and (1, 0), the window's first refused job, may dial at once.
            coveredNeeded.set(false);
            queue.slotFreed();
            assertEquals(JobRunner.Outcome.ABANDONED, covered.get(5, TimeUnit.SECONDS));
            assertFalse(dials.contains("1/0#2"), "(1, 0) dialed after its unit was covered: " + dials);
            try {
                await().atMost(Duration.ofSeconds(5)).until(() -> dials.contains("2/0#2"));
            } catch (ConditionTimeoutException e) {
                throw new AssertionError("the freed slot's turn went nowhere: (1, 0) took it and stopped without"
                        + " dialing, and (2, 0) waits out its 30 s refused delay; dials " + dials, e);
            }
        } finally {
            nextThread.interrupt();
            coveredThread.interrupt();
            nextThread.join(5_000);
            coveredThread.join(5_000);
        }
    }

    @Test
    void theEarlyTurnOfAHurriedJobCancelledJustBeforeItsDialGoesToTheNextRefusedJob() throws Exception {
        AtomicBoolean coveredOnItsNextLook = new AtomicBoolean();
        // (1, 0) finds its unit needed; once told, the look is also when (1, 1)'s cancel reaches it, just after.
        Predicate<JobKey> coveredNeeded = key -> {
            if (coveredOnItsNextLook.getAndSet(false)) {
                running.cancelCoveredBy(new JobKey(COVERED.segment(), 1));
            }
            return true;
        };
        CompletableFuture<JobRunner.Outcome> covered = new CompletableFuture<>();
        CompletableFuture<JobRunner.Outcome> next = new CompletableFuture<>();
        Thread coveredThread = start(COVERED, coveredNeeded, covered);
        Thread nextThread = start(NEXT, key -> true, next);
        try {
            // Both refused once, each sitting out its 30 s refused delay in the window.
            await().atMost(Duration.ofSeconds(5)).until(() -> dials.containsAll(List.of("1/0#1", "2/0#1"))
                    && coveredThread.getState() == Thread.State.TIMED_WAITING
                    && nextThread.getState() == Thread.State.TIMED_WAITING);
            // (1, 1) ended on its tier2: its slot is free, and (1, 0), the window's first refused job, may dial at once.
            coveredOnItsNextLook.set(true);
            queue.slotFreed();
            assertEquals(JobRunner.Outcome.ABANDONED, covered.get(5, TimeUnit.SECONDS));
            assertFalse(dials.contains("1/0#2"), "(1, 0) dialed after it was cancelled: " + dials);
            try {
                await().atMost(Duration.ofSeconds(5)).until(() -> dials.contains("2/0#2"));
            } catch (ConditionTimeoutException e) {
                throw new AssertionError("the freed slot's turn went nowhere: (1, 0) took it, was cancelled before its"
                        + " dial, and (2, 0) waits out its 30 s refused delay; dials " + dials, e);
            }
        } finally {
            nextThread.interrupt();
            coveredThread.interrupt();
            nextThread.join(5_000);
            coveredThread.join(5_000);
        }
    }
}
