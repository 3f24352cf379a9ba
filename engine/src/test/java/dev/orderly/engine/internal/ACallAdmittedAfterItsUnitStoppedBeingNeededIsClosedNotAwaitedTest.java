package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.LaunchQueue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A dial that gets in after the request stopped (its deadline passed while the dial was in flight, say: nothing
 * cancels the job, which only asks) is not awaited: the job closes its call and ends as abandoned, heard as such
 * after its admission, its unit not done. Driven on the test thread, the job's thread.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ACallAdmittedAfterItsUnitStoppedBeingNeededIsClosedNotAwaitedTest {

    private static final JobKey UNIT = new JobKey(3, 0);
    private static final EngineConfig CONFIG = EngineConfig.builder().refusedDelay(Duration.ofMillis(2))
            .failureDelay(Duration.ofMillis(2)).build();

    @AfterEach
    void clearInterrupt() {
        assertFalse(Thread.interrupted(), "the job left an interrupt on its thread");
    }

    @Test
    void theCallIsClosedUnawaitedAndTheJobEndsAbandoned() throws Exception {
        AtomicBoolean stopped = new AtomicBoolean();
        AtomicInteger awaited = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        Tier2Call call = new Tier2Call() {
            @Override
            public void await() {
                awaited.incrementAndGet();
            }

            @Override
            public void close() {
                closed.incrementAndGet();
            }
        };
        // The request stops while the dial is in flight; the dial still gets in.
        Tier2Client tier2 = job -> {
            stopped.set(true);
            return call;
        };
        List<String> heard = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onDial(Job job) {
                heard.add("dial " + job.attempt());
            }

            @Override
            public void onAdmitted(Job job) {
                heard.add("admitted " + job.attempt());
            }

            @Override
            public void onJobDone(Job job) {
                heard.add("done " + job.attempt());
            }

            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                heard.add("failed " + job.attempt());
            }

            @Override
            public void onAbandoned(JobKey key) {
                heard.add("abandoned");
            }
        };
        LaunchQueue queue = new LaunchQueue(10, CONFIG);
        RequestCounters counters = new RequestCounters();
        JobRunner runner = new JobRunner("r-late", 0, tier2, queue, CONFIG, counters, listener, key -> !stopped.get(),
                new StallWatch("r-late", Duration.ofSeconds(30)), () -> 3);
        RunningJobs running = new RunningJobs(16, 4);
        UnitCounts.Tally tally = new UnitCounts.Tally(UnitCounts.NONE);
        JobHandle handle = running.start(UNIT);
        JobRunner.Outcome outcome;
        try {
            outcome = runner.run(UNIT, tally, handle);
        } finally {
            running.end(handle);
        }

        assertEquals(JobRunner.Outcome.ABANDONED, outcome);
        assertEquals(0, awaited.get(), "the call was awaited after the request stopped");
        assertEquals(1, closed.get(), "times the call was closed");
        assertEquals(List.of("dial 1", "admitted 1", "abandoned"), heard);
        assertEquals(new UnitCounts(1, 0, 0, 0), tally.counts(), "the unit's counts: one dial, not done");
        assertEquals(1, counters.resultSoFar().admissions());
        LaunchQueue.Stats stats = queue.stats();
        assertEquals(0, stats.queued(), stats.toString());
        assertEquals(0, stats.dialing(), stats.toString());
    }
}
