package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Ordered launch and the refused delay: a refused job waits out {@code refusedDelay} unless a job of its request ends
 * on a tier2 first, freeing a slot; then it dials at once.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class RefusedDelayAndFreedSlotTest {

    private static final JobKey REFUSED = new JobKey(1, 0);

    /** Unit (1, 0) is refused on its first dial; unit (0, 0) ends only once (1, 0) has joined the queue. */
    private static Tier2Client tier2(InMemoryOutputStore store, CountDownLatch refusedJoined) {
        return job -> {
            long segment = job.key().segment();
            if (job.key().equals(REFUSED) && job.attempt() == 1) {
                throw Tier2Exception.refused("instance at its limit");
            }
            Tier2Call call = () -> {
                if (segment == 0) {
                    refusedJoined.await();
                }
                store.write(segment, ScriptedTier2.outputOf(segment));
            };
            return call;
        };
    }

    private static final class Clock implements RequestListener {
        final CountDownLatch refusedJoined = new CountDownLatch(1);
        final AtomicLong refusedAt = new AtomicLong();
        final AtomicLong redialAt = new AtomicLong();

        @Override
        public void onQueued(JobKey key) {
            if (key.equals(REFUSED)) {
                refusedJoined.countDown();
            }
        }

        @Override
        public void onRefused(Job job, Tier2Exception cause) {
            refusedAt.set(System.nanoTime());
        }

        @Override
        public void onDial(Job job) {
            if (job.key().equals(REFUSED) && job.attempt() == 2) {
                redialAt.set(System.nanoTime());
            }
        }

        long waitedMillis() {
            return TimeUnit.NANOSECONDS.toMillis(redialAt.get() - refusedAt.get());
        }
    }

    @Test
    void aRefusedJobDialsAsSoonAsAJobOfItsRequestEnds() throws Exception {
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofSeconds(60)).build();
        InMemoryOutputStore store = new InMemoryOutputStore();
        Clock clock = new Clock();
        RequestResult result = Orderly.engine(config).run(Request.of(new RequestPlan(0, 2, 1, 2),
                tier2(store, clock.refusedJoined), store, new RecordingClient()).withListener(clock));
        assertEquals(2, result.segmentsDelivered());
        assertEquals(1, result.refusals());
        assertTrue(clock.waitedMillis() < 10_000, "redialed after " + clock.waitedMillis() + " ms, not 60 s");
    }

    @Test
    void withNoJobOfItsRequestEndingARefusedJobWaitsOutItsDelay() throws Exception {
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofSeconds(1)).build();
        InMemoryOutputStore store = new InMemoryOutputStore();
        Clock clock = new Clock();
        clock.refusedJoined.countDown(); // nothing else runs: segment 1 is the only unit
        RequestResult result = Orderly.engine(config).run(Request.of(new RequestPlan(1, 2, 1, 1),
                tier2(store, clock.refusedJoined), store, new RecordingClient()).withListener(clock));
        assertEquals(1, result.segmentsDelivered());
        assertTrue(clock.waitedMillis() >= 1000, "redialed " + clock.waitedMillis() + " ms after the refusal");
    }
}
