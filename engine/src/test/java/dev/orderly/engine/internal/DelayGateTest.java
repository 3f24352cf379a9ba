package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The unordered baseline: each job waits out its own delay, on the gate's clock, and nothing else. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DelayGateTest {

    private static final JobKey KEY = new JobKey(1, 0);
    private static final Duration LONG = Duration.ofSeconds(5);

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private DelayGate gate(Duration refusedDelay, Duration failureDelay) {
        EngineConfig config = EngineConfig.builder().refusedDelay(refusedDelay).failureDelay(failureDelay).build();
        return new DelayGate(config, now::get);
    }

    /** Runs awaitTurn on a virtual thread; the reference holds what it threw, or the thread's own name once passed. */
    private static Thread turn(DelayGate gate, AtomicReference<Object> end) {
        return Thread.ofVirtual().start(() -> {
            try {
                gate.awaitTurn(KEY);
                end.set("passed");
            } catch (InterruptedException e) {
                end.set(e);
            }
        });
    }

    private static void awaitTimedWait(Thread thread) {
        await().atMost(LONG).until(() -> thread.getState() == Thread.State.TIMED_WAITING
                && LockSupport.getBlocker(thread) instanceof Condition);
    }

    @Test
    void aJobNeverRefusedDialsAtOnce() throws InterruptedException {
        DelayGate gate = gate(LONG, LONG);
        gate.awaitTurn(KEY);
        gate.refused(KEY);
        gate.leave(KEY); // admitted: the delay is forgotten
        gate.awaitTurn(KEY);
    }

    @Test
    void aRefusedJobWaitsItsDelayOnTheGatesClock() {
        DelayGate gate = gate(Duration.ofMillis(100), LONG);
        gate.refused(KEY);
        AtomicReference<Object> end = new AtomicReference<>();
        Thread thread = turn(gate, end);
        awaitTimedWait(thread); // waits costing no CPU; only its timer or an interrupt can end the wait

        now.addAndGet(Duration.ofMillis(100).toNanos()); // the timer ends after 100 ms of real time, then reads this
        await().atMost(LONG).until(() -> end.get() != null);
        assertEquals("passed", end.get());
    }

    @Test
    void theDelayIsMeasuredOnTheGatesClock() {
        DelayGate gate = gate(Duration.ofHours(1), LONG);
        gate.refused(KEY);
        now.addAndGet(Duration.ofHours(1).toNanos()); // the delay ends exactly now: not one nanosecond is left to wait
        AtomicReference<Object> end = new AtomicReference<>();
        turn(gate, end);
        // On the real clock this would wait an hour; a wait for "0 ns left" would never end.
        await().atMost(LONG).until(() -> end.get() != null);
        assertEquals("passed", end.get());
    }

    @Test
    void aFailedJobWaitsTheFailureDelayAndAnInterruptEndsTheWait() {
        DelayGate gate = gate(Duration.ZERO, Duration.ofHours(1));
        gate.failed(KEY);
        AtomicReference<Object> end = new AtomicReference<>();
        Thread thread = turn(gate, end);
        awaitTimedWait(thread);
        assertNull(end.get());

        thread.interrupt();
        await().atMost(LONG).until(() -> end.get() != null);
        assertInstanceOf(InterruptedException.class, end.get());
        assertTrue(gate.toString().contains("failureDelay=3600000ms"), gate.toString());
    }
}
