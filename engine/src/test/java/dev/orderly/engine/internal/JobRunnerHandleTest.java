package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.DialGate;
import dev.orderly.engine.LaunchQueue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job whose handle is cancelled (its unit covered) or withdrawn (its worker given up to the re-run) just before it
 * dials, or while its dial is in flight, ends as what happened to it: ABANDONED or WITHDRAWN, never the other. Driven
 * on the test thread, which is the job's thread: the handle's moves are made from inside the job's own calls.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class JobRunnerHandleTest {

    private static final JobKey UNIT = new JobKey(3, 0);
    private static final EngineConfig CONFIG = EngineConfig.builder().refusedDelay(Duration.ofMillis(2))
            .failureDelay(Duration.ofMillis(20)).build();
    // Tier2Call's one abstract method is await: a call that has finished by the time it is awaited.
    private static final Tier2Call FINISHES_AT_ONCE = () -> { };

    private final RunningJobs running = new RunningJobs(16, 4);
    private final AtomicInteger dials = new AtomicInteger();

    @AfterEach
    void clearInterrupt() {
        // Nothing may be left on the job's thread; cleared so a failure here can not leak into the next test.
        assertFalse(Thread.interrupted(), "the job left an interrupt on its thread");
    }

    private JobRunner runner(Tier2Client tier2, Predicate<JobKey> needed) {
        return runner(new DelayGate(CONFIG), tier2, needed);
    }

    private JobRunner runner(DialGate gate, Tier2Client tier2, Predicate<JobKey> needed) {
        return new JobRunner("r-handle", 0, tier2, gate, CONFIG, new RequestCounters(), RequestListener.NONE, needed,
                new StallWatch("r-handle", Duration.ofSeconds(30)), () -> 3);
    }

    private JobRunner.Outcome run(JobRunner runner) throws Exception {
        JobHandle handle = running.start(UNIT);
        try {
            return runner.run(UNIT, new UnitCounts.Tally(UnitCounts.NONE), handle);
        } finally {
            running.end(handle);
        }
    }

    private Tier2Client countingDials(Runnable duringTheDial) {
        return job -> {
            dials.incrementAndGet();
            duringTheDial.run();
            return FINISHES_AT_ONCE;
        };
    }

    /** A tier2 that, while it has the dial, sees the job withdrawn (its worker given up to the re-run), then refuses. */
    private Tier2Client withdrawnThenRefused() {
        return job -> {
            dials.incrementAndGet();
            running.withdraw(UNIT);
            throw Tier2Exception.refused("full");
        };
    }

    @Test
    void aJobCancelledJustBeforeItsDialIsAbandoned() throws Exception {
        AtomicReference<Boolean> first = new AtomicReference<>(true);
        JobRunner runner = runner(countingDials(() -> { }), key -> {
            if (first.getAndSet(false)) {
                running.cancelCoveredBy(new JobKey(UNIT.segment(), 1));
            }
            return true;
        });

        assertEquals(JobRunner.Outcome.ABANDONED, run(runner));
        assertEquals(0, dials.get());
    }

    @Test
    void aJobWithdrawnJustBeforeItsDialIsWithdrawn() throws Exception {
        AtomicReference<Boolean> first = new AtomicReference<>(true);
        JobRunner runner = runner(countingDials(() -> { }), key -> {
            if (first.getAndSet(false)) {
                running.withdraw(UNIT);
            }
            return true;
        });

        assertEquals(JobRunner.Outcome.WITHDRAWN, run(runner));
        assertEquals(0, dials.get());
    }

    @Test
    void aJobCancelledWhileItsDialIsInFlightIsAbandoned() throws Exception {
        JobRunner runner = runner(countingDials(() -> running.cancelCoveredBy(new JobKey(UNIT.segment(), 1))),
                key -> true);

        assertEquals(JobRunner.Outcome.ABANDONED, run(runner));
        assertEquals(1, dials.get());
    }

    @Test
    void aJobWithdrawnWhileItsDialIsInFlightIsWithdrawn() throws Exception {
        JobRunner runner = runner(countingDials(() -> running.withdraw(UNIT)), key -> true);

        assertEquals(JobRunner.Outcome.WITHDRAWN, run(runner));
        assertEquals(1, dials.get());
    }

    @Test
    void aJobWhoseUnitIsNoLongerNeededWhenItsTurnComesDoesNotDial() throws Exception {
        JobRunner runner = runner(countingDials(() -> { }), key -> false);

        assertEquals(JobRunner.Outcome.ABANDONED, run(runner));
        assertEquals(0, dials.get());
    }

    @Test
    void aJobWithdrawnWhileItsDialIsRefusedIsWithdrawnWithoutDialingAgain() throws Exception {
        JobRunner runner = runner(withdrawnThenRefused(), key -> true);

        assertEquals(JobRunner.Outcome.WITHDRAWN, run(runner));
        assertEquals(1, dials.get());
    }

    @Test
    void aJobWithdrawnWhileItsDialIsRefusedTakesNoPlaceInTheLaunchQueue() throws Exception {
        // It gives its worker up at once: a refused job that is still wanted takes a place (the listener hears it
        // queued), a withdrawn one does not.
        List<JobKey> joined = new CopyOnWriteArrayList<>();
        LaunchQueue queue = new LaunchQueue(16, CONFIG, joined::add);
        JobRunner runner = runner(queue, withdrawnThenRefused(), key -> true);

        assertEquals(JobRunner.Outcome.WITHDRAWN, run(runner));
        assertEquals(1, dials.get());
        assertEquals(List.of(), joined, "the withdrawn job joined the launch queue");
        assertEquals(0, queue.size());
    }
}
