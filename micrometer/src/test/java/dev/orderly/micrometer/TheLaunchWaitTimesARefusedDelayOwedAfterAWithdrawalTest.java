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
 * refusal or failure, to its next dial". A job refused (here a tier2 that took it and then says nothing ran) that
 * gives its worker up to the client's re-run before its redial leaves the refused delay to its unit's next job, which
 * waits it out before its first dial (365829e). With ordered launch off nothing told the listener that wait began
 * (the withdrawal's {@code onAbandoned} had ended the refused job's), so the timer recorded nothing for it, as it once
 * recorded nothing for an owed failure delay ({@code TheLaunchWaitTimesAFailureDelayOwedAfterAWithdrawalTest}).
 *
 * <p>DelayOwedAfterAWithdrawal: plan 3 x 1 on one worker: segment 0's output is missing while segment 1's job runs; segment 1's call then says
 * nothing ran and, the re-run waiting for its worker, the job is withdrawn; its unit's next job owes a refused delay
 * of 1 s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TheLaunchWaitTimesARefusedDelayOwedAfterAWithdrawalTest {

    private static final Duration REFUSED_DELAY = Duration.ofSeconds(1);

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void theOwedDelayIsOneLaunchWait(boolean ordered) throws Exception {
        EngineConfig config = EngineConfig.builder().refusedDelay(REFUSED_DELAY).failureDelay(Duration.ofMillis(2))
                .ordered(ordered).build();
        Timer launchWait = DelayOwedAfterAWithdrawal.launchWait(config,
                () -> Tier2Exception.refused("evicted before it started"));
        // The gate waits out the whole delay (nothing ends on a tier2 meanwhile: the one worker is segment 1's), so
        // the longest recorded wait is at least that; noise only lengthens it.
        assertTrue(launchWait.max(TimeUnit.MILLISECONDS) >= REFUSED_DELAY.toMillis() * 0.9,
                "no launch wait as long as the owed refused delay (" + REFUSED_DELAY.toMillis() + " ms): "
                        + launchWait.count() + " waits, the longest " + launchWait.max(TimeUnit.MILLISECONDS)
                        + " ms");
    }
}
