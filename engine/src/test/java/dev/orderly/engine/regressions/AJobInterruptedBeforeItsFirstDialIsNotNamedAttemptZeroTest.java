package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * A job whose thread is interrupted (here by a listener that leaves the interrupt set in {@code onQueued}) while it
 * waits for its unit's first turn fails the request naming the unit; the message must not name an "attempt 0", which
 * no {@code Job} has (attempts count from 1): no dial was made.
 *
 * <p>Whichever job the queue lets through first, the request fails: (0,0) is always refused and keeps its place at the
 * head of the queue (a window of one, a refused delay of an hour), so every other unit that comes for its first turn
 * after that joins the queue behind it, and the listener interrupts any unit that joins before it ever dialed. A unit
 * that got through before (0,0) was refused stays on its tier2 until (0,0) holds its place, so the unit launched on
 * the worker it frees comes after. (A listener that interrupts only the third unit leaves the second one parked behind
 * (0,0) for the hour whenever the second comes for its turn after the refusal.)
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AJobInterruptedBeforeItsFirstDialIsNotNamedAttemptZeroTest {

    private static final JobKey HEAD = new JobKey(0, 0);

    @RepeatedTest(5)
    void theMessageSaysNoDialWasMade() {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        EngineConfig config = Fixtures.fast().toBuilder().launchWindowMin(1).launchWindowMax(1)
                .refusedDelay(Duration.ofHours(1)).build();
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch headQueued = new CountDownLatch(1);
        Set<JobKey> dialed = ConcurrentHashMap.newKeySet();
        Set<JobKey> interrupted = ConcurrentHashMap.newKeySet();
        RequestListener listener = new RequestListener() {
            @Override
            public void onDial(Job job) {
                dialed.add(job.key());
            }

            @Override
            public void onQueued(JobKey key) {
                if (key.equals(HEAD)) {
                    headQueued.countDown(); // (0,0) holds its place at the head of the queue
                } else if (!dialed.contains(key)) {
                    interrupted.add(key);
                    Thread.currentThread().interrupt(); // a listener's bug: the interrupt is left set
                }
            }
        };
        Request request = Request.of(plan, job -> {
            if (job.key().equals(HEAD)) {
                throw Tier2Exception.refused("full");
            }
            return new Tier2Call() {
                @Override
                public void await() throws InterruptedException {
                    // Bounded; false only if (0,0) never joined the queue, which the assertions below then show.
                    headQueued.await(20, TimeUnit.SECONDS);
                    store.write(job.key().segment(), new byte[] {1});
                }
            };
        }, store, (segment, output) -> { }).withListener(listener);

        RequestFailedException failure = assertThrows(RequestFailedException.class,
                () -> Orderly.engine(config).run(request));

        assertTrue(headQueued.getCount() == 0, "(0,0) never joined the queue");
        JobKey key = failure.key().orElseThrow(() -> new AssertionError("no unit named: " + failure.getMessage()));
        assertTrue(interrupted.contains(key), "failed by another unit than the one interrupted: " + failure.getMessage());
        assertFalse(dialed.contains(key), "the unit dialed after all: " + failure.getMessage());
        assertInstanceOf(InterruptedException.class, failure.getCause());
        assertFalse(failure.getMessage().contains("attempt 0"), failure.getMessage());
        assertTrue(failure.getMessage().startsWith(key + " failed before its first dial"), failure.getMessage());
    }
}
