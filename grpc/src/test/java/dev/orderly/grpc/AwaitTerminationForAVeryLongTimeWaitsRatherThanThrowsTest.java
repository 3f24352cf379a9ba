package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Tier2Server.awaitTermination(Duration)} with a duration too long to count in nanoseconds (say
 * {@code ChronoUnit.FOREVER.getDuration()}, "wait for good") threw {@code ArithmeticException: long overflow}, even
 * for a server already stopped; it waits, as {@code awaitTermination()} does.
 */
@Timeout(60)
class AwaitTerminationForAVeryLongTimeWaitsRatherThanThrowsTest {

    @Test
    void aStoppedServerAnswersTrueForAnyTimeout() throws Exception {
        Tier2Server server = Tier2Server.builder().worker((job, work) -> { }).build().start();
        server.close();
        assertTrue(server.awaitTermination(ChronoUnit.FOREVER.getDuration()));
        assertTrue(server.awaitTermination(Duration.ofNanos(Long.MAX_VALUE).plusSeconds(1)));
    }

    @Test
    void aRunningServerIsWaitedForUntilTheWaitIsInterrupted() throws Exception {
        Tier2Server server = Tier2Server.builder().worker((job, work) -> { }).build().start();
        try {
            Thread.currentThread().interrupt(); // ends the wait at once, if it begins
            boolean stopped;
            try {
                stopped = server.awaitTermination(ChronoUnit.FOREVER.getDuration());
            } catch (InterruptedException expected) {
                stopped = false;
            }
            assertFalse(stopped);
            assertFalse(server.isTerminated());
        } finally {
            Thread.interrupted();
            server.close();
        }
    }
}
