package dev.orderly.engine;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/** The check a finished request must pass: no tier2 call open and no request thread alive, soon after run returned. */
final class Quiet {

    /** How soon after {@code run} returns the request must be quiet. */
    static final Duration WITHIN = Duration.ofMillis(100);

    private Quiet() {
    }

    /**
     * True if, within {@link #WITHIN} of now, {@code openCalls} is 0 and {@code aliveThreads} is 0. Polls from at once
     * (no initial delay) on the calling thread, so a request that is quiet when run returns passes on the first look
     * however busy the machine.
     */
    static boolean within100Ms(IntSupplier openCalls, LongSupplier aliveThreads) {
        try {
            await().pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5)).atMost(WITHIN)
                    .until(() -> openCalls.getAsInt() == 0 && aliveThreads.getAsLong() == 0);
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }
}
