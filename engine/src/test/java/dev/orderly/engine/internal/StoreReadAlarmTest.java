package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link StoreReadAlarm} driven by a walker thread of the test's own: the deadline interrupts a read in progress and
 * only a read, the walker keeps any other interrupt, and {@code close()} outlasts its alarm thread even when the walker
 * is interrupted meanwhile.
 *
 * <p>Equivalent mutant, not tested: {@code remaining > 0} as {@code remaining >= 0} in the alarm's wait loop. With
 * exactly nothing left, the mutant waits once more for {@code awaitNanos(0)}, which returns at once with a value
 * {@code <= 0}, and rings the same way.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StoreReadAlarmTest {

    private final ExecutorService walkers = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void stopWalkers() throws InterruptedException {
        walkers.shutdownNow();
        assertTrue(walkers.awaitTermination(10, TimeUnit.SECONDS), "a walker thread outlived its test");
    }

    private <T> T asWalker(Callable<T> body) throws Exception {
        return walkers.submit(body).get(20, TimeUnit.SECONDS);
    }

    /**
     * A read that does not answer interrupts by throwing: it parks until the thread is interrupted or {@code bound}
     * has passed, and leaves the interrupt flag as it found it. True if it saw the interrupt.
     */
    private static boolean parkUntilInterrupted(Duration bound) {
        long end = System.nanoTime() + bound.toNanos();
        while (!Thread.currentThread().isInterrupted()) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            LockSupport.parkNanos(left);
        }
        return true;
    }

    @Test
    void theDeadlinePassingDuringAReadInterruptsItAndTheExitClearsThatInterrupt() throws Exception {
        List<Boolean> seen = asWalker(() -> {
            StoreReadAlarm alarm = new StoreReadAlarm(Deadline.after(Duration.ofMillis(100)), "alarm-1");
            try {
                boolean entered = alarm.enterRead();
                boolean interrupted = parkUntilInterrupted(Duration.ofSeconds(10));
                boolean fired = alarm.exitRead();
                boolean flagAfterExit = Thread.currentThread().isInterrupted();
                boolean enteredAfterDeadline = alarm.enterRead();
                return List.of(entered, interrupted, fired, flagAfterExit, enteredAfterDeadline);
            } finally {
                alarm.close();
            }
        });
        assertEquals(List.of(true, true, true, false, false), seen,
                "entered, interrupted by the deadline, exit says fired, flag left set, entered after the deadline");
    }

    @Test
    void aReadWellBeforeTheDeadlineIsNotInterruptedAndAnInterruptFromElsewhereIsKept() throws Exception {
        List<Boolean> seen = asWalker(() -> {
            StoreReadAlarm alarm = new StoreReadAlarm(Deadline.after(Duration.ofHours(1)), "alarm-2");
            boolean entered = alarm.enterRead();
            // Still silent after 300 ms against a deadline an hour away.
            boolean interrupted = parkUntilInterrupted(Duration.ofMillis(300));
            Thread.currentThread().interrupt(); // the request being cancelled, say
            boolean fired = alarm.exitRead();
            boolean flagAfterExit = Thread.currentThread().isInterrupted();
            alarm.close();
            boolean flagAfterClose = Thread.interrupted();
            return List.of(entered, interrupted, fired, flagAfterExit, flagAfterClose);
        });
        assertEquals(List.of(true, false, false, true, true), seen,
                "entered, interrupted, exit says fired, the cancel's flag after exit, and after close");
    }

    @Test
    void aReadIsRefusedOnceNoTimeIsLeftNotOnlyOnceTimeIsOverdue() throws Exception {
        AtomicLong now = new AtomicLong(1_000);
        List<Boolean> seen = asWalker(() -> {
            Deadline deadline = Deadline.after(Duration.ofNanos(100), now::get);
            now.set(1_100); // exactly at the deadline: nothing left
            StoreReadAlarm alarm = new StoreReadAlarm(deadline, "alarm-3");
            boolean entered = alarm.enterRead();
            alarm.close(); // no alarm was started: returns at once
            return List.of(entered, Thread.currentThread().isInterrupted());
        });
        assertEquals(List.of(false, false), seen, "entered, walker interrupted");
    }

    /**
     * One read through {@code alarm} during which the walker interrupts itself, then the alarm's close: whether the
     * read was entered, whether the alarm fired, and whether the walker's own interrupt was still there.
     */
    private static List<Boolean> readInterruptedByTheWalker(StoreReadAlarm alarm) {
        boolean entered = alarm.enterRead();
        Thread.currentThread().interrupt();
        boolean fired = alarm.exitRead();
        boolean flag = Thread.interrupted();
        alarm.close();
        return List.of(entered, fired, flag);
    }

    @Test
    void withNoDeadlineEveryReadIsEnteredAndNothingFires() throws Exception {
        List<Boolean> seen = asWalker(() -> readInterruptedByTheWalker(
                new StoreReadAlarm(Deadline.after(null), "alarm-4")));
        assertEquals(List.of(true, false, true), seen, "entered, fired, the flag the walker set itself");
    }

    @Test
    void walkersWithNoDeadlineShareOneAlarmThatNeverFiresAndEveryOtherWalkerGetsItsOwn() throws Exception {
        List<StoreReadAlarm> none = List.of(
                asWalker(() -> StoreReadAlarm.forWalker(Deadline.after(null), "r-1")),
                asWalker(() -> StoreReadAlarm.forWalker(Deadline.after(null), "r-2")));
        assertSame(none.get(0), none.get(1), "a request with no deadline makes an alarm of its own");
        List<Boolean> seen = asWalker(() -> readInterruptedByTheWalker(none.get(0)));
        assertEquals(List.of(true, false, true), seen, "entered, fired, the flag the walker set itself");

        Deadline inAnHour = Deadline.after(Duration.ofHours(1));
        StoreReadAlarm one = asWalker(() -> StoreReadAlarm.forWalker(inAnHour, "r-3"));
        StoreReadAlarm other = asWalker(() -> StoreReadAlarm.forWalker(inAnHour, "r-3"));
        assertNotSame(one, other);
        assertNotSame(none.get(0), one);
    }

    /**
     * A deadline an hour away on a clock that, read by the alarm thread after the walker began to close it, holds
     * that thread inside the read until {@code release} (at most 10 s).
     */
    private static final class SlowAlarmClock implements LongSupplier {
        final AtomicBoolean closing = new AtomicBoolean();
        final CountDownLatch alarmHeld = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicReference<Thread> alarmThread = new AtomicReference<>();
        volatile Thread walker;

        @Override
        public long getAsLong() {
            if (closing.get() && Thread.currentThread() != walker && alarmThread.compareAndSet(null,
                    Thread.currentThread())) {
                alarmHeld.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return System.nanoTime();
        }
    }

    @Test
    void closeWaitsForTheAlarmThreadToEnd() throws Exception {
        SlowAlarmClock clock = new SlowAlarmClock();
        CountDownLatch closed = new CountDownLatch(1);
        Future<List<Boolean>> walker = walkers.submit(() -> {
            clock.walker = Thread.currentThread();
            StoreReadAlarm alarm = new StoreReadAlarm(Deadline.after(Duration.ofHours(1), clock), "alarm-5");
            alarm.enterRead();
            alarm.exitRead();
            clock.closing.set(true);
            alarm.close();
            closed.countDown();
            return List.of(clock.alarmThread.get().isAlive(), Thread.currentThread().isInterrupted());
        });
        assertTrue(clock.alarmHeld.await(10, TimeUnit.SECONDS), "the alarm woke up at its close");
        // The alarm thread is held: close() may not return for as long as it is.
        boolean returnedWhileHeld = closed.await(500, TimeUnit.MILLISECONDS);
        clock.release.countDown();
        assertFalse(returnedWhileHeld, "close() returned while its alarm thread was still running");
        assertEquals(List.of(false, false), walker.get(10, TimeUnit.SECONDS), "alarm alive, walker interrupted");
    }

    @Test
    void anInterruptDuringCloseDoesNotCutTheWaitShortAndIsKept() throws Exception {
        SlowAlarmClock clock = new SlowAlarmClock();
        AtomicReference<Thread> walkerThread = new AtomicReference<>();
        Future<List<Boolean>> walker = walkers.submit(() -> {
            clock.walker = Thread.currentThread();
            walkerThread.set(Thread.currentThread());
            StoreReadAlarm alarm = new StoreReadAlarm(Deadline.after(Duration.ofHours(1), clock), "alarm-6");
            alarm.enterRead();
            alarm.exitRead();
            clock.closing.set(true);
            alarm.close();
            return List.of(clock.alarmThread.get().isAlive(), Thread.interrupted());
        });
        assertTrue(clock.alarmHeld.await(10, TimeUnit.SECONDS), "the alarm woke up at its close");
        walkerThread.get().interrupt();
        clock.release.countDown();
        assertEquals(List.of(false, true), walker.get(10, TimeUnit.SECONDS), "alarm alive, walker interrupted");
    }
}
