package dev.orderly.archtests.violations.engine;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Bad: sleeping instead of a timed wait on a condition. */
public final class Sleeps {

    /** {@code Thread.sleep(long)}. */
    public static final class ThreadSleep {
        public void pause() throws InterruptedException {
            Thread.sleep(100);
        }
    }

    /** {@code Thread.sleep(Duration)}. */
    public static final class ThreadSleepDuration {
        public void pause() throws InterruptedException {
            Thread.sleep(Duration.ofMillis(100));
        }
    }

    /** {@code TimeUnit.sleep}, Thread.sleep in disguise. */
    public static final class TimeUnitSleep {
        public void pause() throws InterruptedException {
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }
}
