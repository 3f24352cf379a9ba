package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job whose thread is interrupted (here by a listener that leaves the interrupt set in {@code onQueued}) while it
 * waits for its first turn fails the request naming the unit; the message must not name an "attempt 0", which no
 * {@code Job} has (attempts count from 1): no dial was made.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AJobInterruptedBeforeItsFirstDialIsNotNamedAttemptZeroTest {

    private static final JobKey HEAD = new JobKey(0, 0);
    private static final JobKey SECOND = new JobKey(1, 0);
    private static final JobKey THIRD = new JobKey(2, 0);

    @Test
    void theMessageSaysNoDialWasMade() {
        // Two workers, a window of one: (0,0) is refused and keeps its place; (1,0) runs until (0,0) holds its place in the queue;
        // (2,0), started when (1,0) ends, sorts behind (0,0) and joins the queue before it ever dials.
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        EngineConfig config = Fixtures.fast().toBuilder().launchWindowMin(1).launchWindowMax(1)
                .refusedDelay(Duration.ofHours(1)).build();
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch headQueued = new CountDownLatch(1);
        Set<JobKey> dialed = ConcurrentHashMap.newKeySet();
        RequestListener listener = new RequestListener() {
            @Override
            public void onDial(Job job) {
                dialed.add(job.key());
            }

            @Override
            public void onQueued(JobKey key) {
                if (key.equals(HEAD)) {
                    headQueued.countDown(); // heard once (0,0) holds its place in the queue
                } else if (key.equals(THIRD) && !dialed.contains(key)) {
                    Thread.currentThread().interrupt(); // a listener's bug: the interrupt is left set
                }
            }
        };
        Request request = Request.of(plan, job -> {
            if (job.key().equals(HEAD) && !dialed.contains(THIRD)) {
                // refused until (2,0) dials, which it must not: then the request would end, and this test fail
                throw Tier2Exception.refused("full");
            }
            return new Tier2Call() {
                @Override
                public void await() throws InterruptedException {
                    if (job.key().equals(SECOND)) {
                        assertTrue(headQueued.await(20, TimeUnit.SECONDS), "(0,0) never joined the queue");
                    }
                    store.write(job.key().segment(), new byte[] {1});
                }
            };
        }, store, (segment, output) -> { }).withListener(listener);

        RequestFailedException failure = assertThrows(RequestFailedException.class,
                () -> Orderly.engine(config).run(request));

        assertEquals(Optional.of(THIRD), failure.key());
        assertInstanceOf(InterruptedException.class, failure.getCause());
        assertFalse(dialed.contains(THIRD), "the unit dialed after all: " + failure.getMessage());
        assertFalse(failure.getMessage().contains("attempt 0"), failure.getMessage());
        assertTrue(failure.getMessage().startsWith("segment 2 stage 0 failed before its first dial"),
                failure.getMessage());
    }
}
