package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.DialGate;
import dev.orderly.engine.testlog.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.event.Level;

/**
 * The stall warning counts "no" from the request's first dial. A job withdrawn (its worker given up to the re-run of
 * the client's segment) in the moment after its turn came and before it dialed never dials: it must not start that
 * count. Otherwise the time until the request's real first dial (here 10 s on the watch's clock, the re-run's own
 * wait) counts as "no", and the first refusal, one "no", warns "is the tier2 address right, the fleet up?".
 *
 * <p>The gate withdraws the job as it hands it its turn: the walker's withdrawal landing between the turn and the
 * job's check before its dial, a race in the engine, made certain here. Driven on the test thread, the job's thread.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AWithdrawalBeforeTheRequestsFirstDialStartsNoStallCountTest {

    private static final JobKey UNIT = new JobKey(3, 0);
    private static final Duration STALL_WARNING = Duration.ofSeconds(1);
    private static final EngineConfig CONFIG = EngineConfig.builder().refusedDelay(Duration.ofMillis(2))
            .failureDelay(Duration.ofMillis(2)).stallWarning(STALL_WARNING).build();

    private final RunningJobs running = new RunningJobs(16, 4);
    // The stall watch's clock, which the test moves.
    private final AtomicLong clock = new AtomicLong();

    @AfterEach
    void cleanUp() {
        LogCapture.stop();
        assertFalse(Thread.interrupted(), "the job left an interrupt on its thread");
    }

    /** A delay gate that, the first time it hands a job its turn, has the job withdrawn just as it returns. */
    private DialGate withdrawingOnTheFirstTurn() {
        return new FirstTurnHookedDelayGate(CONFIG, key -> { },
                key -> assertTrue(running.withdraw(key), "the job, between its turn and its dial, could not be withdrawn"));
    }

    private JobRunner.Outcome run(JobRunner runner, UnitCounts.Tally tally) throws Exception {
        JobHandle handle = running.start(UNIT);
        try {
            return runner.run(UNIT, tally, handle);
        } finally {
            running.end(handle);
        }
    }

    @Test
    void theRefusalOfTheFirstRealDialLogsNoStallWarning() throws Exception {
        withdrawnThenRefusedOnceWarnsOfNoStall(withdrawingOnTheFirstTurn(), key -> true);
    }

    @Test
    void aWithdrawalLandingAfterTheJobsLookAndBeforeItsDialStartsNoStallCountEither() throws Exception {
        // The withdrawal lands as the job looks whether its unit is still needed: after its check of the handle, before
        // its dial starts (which the handle then refuses).
        AtomicBoolean firstLook = new AtomicBoolean(true);
        Predicate<JobKey> needed = key -> {
            if (firstLook.getAndSet(false)) {
                assertTrue(running.withdraw(key), "the job, before its dial, could not be withdrawn");
            }
            return true;
        };
        withdrawnThenRefusedOnceWarnsOfNoStall(new DelayGate(CONFIG), needed);
    }

    /**
     * The unit's first job, withdrawn by {@code gate} or {@code needed} before it dials, dials nothing; 10 s later on
     * the watch's clock its next job makes the request's first dial, refused once, then gets in: no stall warning.
     */
    private void withdrawnThenRefusedOnceWarnsOfNoStall(DialGate gate, Predicate<JobKey> needed) throws Exception {
        List<Integer> dials = new CopyOnWriteArrayList<>();
        // The first dial is refused, the next gets in.
        Tier2Client tier2 = job -> {
            dials.add(job.attempt());
            if (dials.size() == 1) {
                throw Tier2Exception.refused("full");
            }
            return () -> { };
        };
        StallWatch stall = new StallWatch("r-stall", STALL_WARNING, clock::get);
        JobRunner runner = new JobRunner("r-stall", 0, tier2, gate, CONFIG, new RequestCounters(), RequestListener.NONE,
                needed, stall, () -> 3);
        LogCapture.start();

        UnitCounts.Tally first = new UnitCounts.Tally(UnitCounts.NONE);
        assertEquals(JobRunner.Outcome.WITHDRAWN, run(runner, first));
        assertEquals(List.of(), dials, "the withdrawn job dialed");
        // The re-run takes its worker and its time; nothing of the request dials meanwhile.
        clock.addAndGet(Duration.ofSeconds(10).toNanos());
        // The unit's next job makes the request's first dial, refused once, then gets in.
        assertEquals(JobRunner.Outcome.DONE, run(runner, new UnitCounts.Tally(first.counts())));
        assertEquals(List.of(1, 2), dials);

        assertEquals(List.of(), LogCapture.stop().stream()
                .filter(event -> event.level() == Level.WARN && event.message().contains("heard nothing but"))
                .map(LogCapture.Event::message).toList(),
                "one refusal, right after the request's first dial, warned of a stall");
    }
}
