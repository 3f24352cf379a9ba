package dev.orderly.testing;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: {@code InMemoryFleet.Builder.jobTime} takes any duration {@code >= 0}, but one over about 292 years (a
 * test's "until cancelled", {@code ChronoUnit.FOREVER.getDuration()} say) made every admitted job's {@code await}
 * throw a bare {@code ArithmeticException} at once ("long overflow"), which the engine reads as a FATAL failure. Such
 * a job now holds its slot until its thread is interrupted, as any long job does.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AJobTimeTooLongToCountHoldsTheJobTest {

    @Test
    void aJobOfAnEndlessJobTimeRunsUntilInterrupted() throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().jobTime(Duration.ofSeconds(Long.MAX_VALUE)).build();
        Tier2Call call = fleet.tenant(new RequestPlan(0, 1, 1, 1)).client()
                .dial(new Job("r-1", new JobKey(0, 0), 1));
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread thread = Thread.ofPlatform().start(() -> {
            try {
                call.await();
                ended.complete(null);
            } catch (Throwable t) {
                ended.complete(t);
            }
        });
        try {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> ended.isDone() || thread.getState() == Thread.State.TIMED_WAITING);
            assertEquals(false, ended.isDone(), () -> "await ended at once: " + ended.join());
            thread.interrupt();
            assertInstanceOf(InterruptedException.class, ended.get(10, TimeUnit.SECONDS));
        } finally {
            thread.interrupt();
            thread.join(10_000);
            call.close();
        }
        assertEquals(0, fleet.busySlots());
    }
}
