package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a store read that the walker entered just as the deadline passed was never interrupted. The walker
 * looked at the deadline without the alarm's lock and then marked itself reading under it; an alarm that woke at the
 * deadline in between found no read, rang for nobody and ended, and a store read that hung then held the request for
 * good. The walker now looks at the deadline again under the lock, where the alarm decides.
 *
 * <p>The interleaving is forced through the deadline's clock: the walker's look before the lock reads the time just
 * before the deadline, then moves the clock to the deadline and waits there until the alarm's thread has ended.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AStoreReadEnteredAsTheDeadlinePassesIsRefusedTest {

    private static final long DEADLINE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    @Test
    void aReadEnteredAsTheAlarmRingsForNobodyIsRefused() throws Exception {
        AtomicLong now = new AtomicLong();
        CompletableFuture<Thread> alarmThread = new CompletableFuture<>();
        AtomicBoolean armed = new AtomicBoolean();
        LongSupplier clock = () -> {
            if (Thread.currentThread().getName().equals("alarm-under-test")) {
                alarmThread.complete(Thread.currentThread());
            } else if (armed.compareAndSet(true, false)) {
                long beforeTheDeadline = now.get();
                now.set(DEADLINE_NANOS);
                joinAlarm(alarmThread);
                return beforeTheDeadline;
            }
            return now.get();
        };
        ExecutorService walkers = Executors.newVirtualThreadPerTaskExecutor();
        try {
            boolean entered = walkers.submit(() -> {
                StoreReadAlarm alarm = new StoreReadAlarm(Deadline.after(Duration.ofNanos(DEADLINE_NANOS), clock),
                        "alarm-under-test");
                try {
                    assertTrue(alarm.enterRead(), "the first read, well before the deadline");
                    assertFalse(alarm.exitRead());
                    alarmThread.get(10, TimeUnit.SECONDS);
                    armed.set(true);
                    return alarm.enterRead();
                } finally {
                    alarm.close();
                }
            }).get(20, TimeUnit.SECONDS);

            assertFalse(entered, "a read entered as the deadline passed, after the alarm had rung for no read and "
                    + "ended: nothing would ever interrupt it");
        } finally {
            walkers.shutdownNow();
        }
    }

    private static void joinAlarm(CompletableFuture<Thread> alarmThread) {
        try {
            assertTrue(alarmThread.get(10, TimeUnit.SECONDS).join(Duration.ofSeconds(10)), "the alarm never ended");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
