package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A unit covered while its dial is in flight (a higher stage of its segment is done: the board no longer needs it,
 * then its job is cancelled and interrupted mid-dial) hears the dial's answer afterwards. An answer that says the job
 * ran (here RETRYABLE, a client answering the interrupt with a {@code Tier2Exception}) is the echo of the engine's own
 * stop: not counted, not heard as a failure; the job ends abandoned. A refusal says nothing ran: it is the dial's
 * answer, counted and heard as a refusal as any is, and then the job ends abandoned, not redialing. Driven on the test
 * thread, the job's thread.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AnAnswerHeardAfterItsUnitWasCoveredIsNotCountedAsAFailureTest {

    private static final JobKey UNIT = new JobKey(3, 0);
    private static final JobKey COVERING = new JobKey(3, 1);
    private static final EngineConfig CONFIG = EngineConfig.builder().refusedDelay(Duration.ofMillis(2))
            .failureDelay(Duration.ofMillis(2)).build();

    private final RunningJobs running = new RunningJobs(16, 4);
    private final AtomicBoolean covered = new AtomicBoolean();
    private final RequestCounters counters = new RequestCounters();
    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final RequestListener listener = new RequestListener() {
        @Override
        public void onDial(Job job) {
            heard.add("dial " + job.attempt());
        }

        @Override
        public void onRefused(Job job, Tier2Exception cause) {
            heard.add("refused " + job.attempt());
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

    @AfterEach
    void clearInterrupt() {
        assertFalse(Thread.interrupted(), "the job left an interrupt on its thread");
    }

    /** A tier2 that, while it has the dial, sees the unit covered and its job cancelled, then answers {@code e}. */
    private Tier2Client coveredMidDialThenAnswering(Tier2Exception e) {
        return job -> {
            covered.set(true);
            running.cancelCoveredBy(COVERING);
            throw e;
        };
    }

    private UnitCounts.Tally run(Tier2Client tier2) throws Exception {
        JobRunner runner = new JobRunner("r-echo", 0, tier2, new DelayGate(CONFIG), CONFIG, counters, listener,
                key -> !covered.get(), new StallWatch("r-echo", Duration.ofSeconds(30)), () -> 3);
        UnitCounts.Tally tally = new UnitCounts.Tally(UnitCounts.NONE);
        JobHandle handle = running.start(UNIT);
        try {
            assertEquals(JobRunner.Outcome.ABANDONED, runner.run(UNIT, tally, handle));
        } finally {
            running.end(handle);
        }
        return tally;
    }

    @Test
    void aFailureTheDialAnswersOnceItsUnitIsCoveredIsNeitherCountedNorHeardAsAFailure() throws Exception {
        UnitCounts.Tally tally = run(coveredMidDialThenAnswering(Tier2Exception.retryable("interrupted mid-dial", null)));

        assertEquals(List.of("dial 1", "abandoned"), heard);
        assertEquals(new UnitCounts(1, 0, 0, 0), tally.counts(), "the unit's counts");
        RequestResult figures = counters.resultSoFar();
        assertEquals(0, figures.failures(), figures.toString());
        assertEquals(1, figures.dials(), figures.toString());
    }

    @Test
    void aRefusalTheDialAnswersOnceItsUnitIsCoveredIsStillHeardAndCountedAsARefusal() throws Exception {
        UnitCounts.Tally tally = run(coveredMidDialThenAnswering(Tier2Exception.refused("full")));

        assertEquals(List.of("dial 1", "refused 1", "abandoned"), heard);
        assertEquals(new UnitCounts(1, 0, 0, 0), tally.counts(), "the unit's counts");
        RequestResult figures = counters.resultSoFar();
        assertEquals(1, figures.refusals(), figures.toString());
        assertEquals(1, figures.dials(), figures.toString());
    }
}
