package dev.orderly.micrometer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Tier2Exception;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: {@code orderly.launch.wait} times "a job's wait for its turn to dial: from … being sent back by a
 * refusal or failure, to its next dial". A job that got in, failed, and gave its worker up to the client's re-run
 * before its next dial leaves the failure delay to its unit's next job, which waits it out before its first dial.
 * With ordered launch off nothing told the listener that wait began (the withdrawal's {@code onAbandoned} had ended
 * the failed job's), so the timer recorded nothing for it. The listener now hears {@code onFailureDelayOwed}.
 *
 * <p>DelayOwedAfterAWithdrawal: plan 3 x 1 on one worker: segment 0's output is missing while segment 1's job runs; segment 1's job then fails
 * and, the re-run waiting for its worker, is withdrawn; its unit's next job owes a failure delay of 1 s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TheLaunchWaitTimesAFailureDelayOwedAfterAWithdrawalTest {

    private static final Duration FAILURE_DELAY = Duration.ofSeconds(1);

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void theOwedDelayIsOneLaunchWait(boolean ordered) throws Exception {
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofMillis(2)).failureDelay(FAILURE_DELAY)
                .ordered(ordered).build();
        Timer launchWait = DelayOwedAfterAWithdrawal.launchWait(config,
                () -> Tier2Exception.retryable("stream reset", null));
        // The gate waits out the whole delay, so the longest recorded wait is at least that; noise only lengthens it.
        assertTrue(launchWait.max(TimeUnit.MILLISECONDS) >= FAILURE_DELAY.toMillis() * 0.9,
                "no launch wait as long as the owed failure delay (" + FAILURE_DELAY.toMillis() + " ms): "
                        + launchWait.count() + " waits, the longest " + launchWait.max(TimeUnit.MILLISECONDS)
                        + " ms");
    }
}
