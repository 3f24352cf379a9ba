package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A tier2 that took the job and then says nothing ran (REFUSED from {@code await}) is a refusal: the job waits
 * {@code refusedDelay} before it dials again, unless another job of its request ends on a tier2 first. The job's own
 * end used to call {@code slotFreed} after it had re-queued itself as refused, so it cut its own delay short: a tier2
 * that admits and then refuses was redialed at once, again and again, with no delay at all.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ARefusalHeardFromAwaitWaitsOutTheRefusedDelayTest {

    @Test
    void aJobRefusedByItsCallsAwaitWaitsTheRefusedDelayBeforeItsNextDial() throws Exception {
        // One unit, one worker: nothing else of the request can end and free a slot.
        RequestPlan plan = new RequestPlan(0, 1, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        List<Long> dialedAt = new CopyOnWriteArrayList<>();
        Tier2Client tier2 = job -> {
            dialedAt.add(System.nanoTime());
            return new Tier2Call() {
                @Override
                public void await() throws Tier2Exception {
                    if (job.attempt() <= 2) {
                        throw Tier2Exception.refused("took it, then found no room (attempt " + job.attempt() + ")");
                    }
                    store.write(job.key().segment(), ScriptedTier2.outputOf(job.key().segment()));
                }
            };
        };
        List<Job> refused = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onRefused(Job job, Tier2Exception cause) {
                refused.add(job);
            }
        };
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofSeconds(1)).build();

        RequestResult result = Orderly.engine(config).run(
                Request.of(plan, tier2, store, new RecordingClient()).withListener(listener));

        assertEquals(1, result.segmentsDelivered());
        assertEquals(2, refused.size());
        assertEquals(3, dialedAt.size());
        for (int i = 1; i < dialedAt.size(); i++) {
            long waited = TimeUnit.NANOSECONDS.toMillis(dialedAt.get(i) - dialedAt.get(i - 1));
            assertTrue(waited >= 1000, "dial " + (i + 1) + " came " + waited + " ms after the refusal of dial " + i
                    + ", not after the refusedDelay of 1000 ms");
        }
    }
}
