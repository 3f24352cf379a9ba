package dev.orderly.engine.internal.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code dev.orderly.LaunchWait}'s cause is "what sent the job to wait: queued, refused or failed". A job that got
 * in and failed, and gave its worker up to the client's re-run before its next dial, leaves the failure delay to its
 * unit's next job, which waits it out before its first dial. That wait was recorded with the cause {@code queued}
 * (ordered), or not at all (unordered), although the failure sent the unit to wait, as it does for a job that
 * waits out its own failure delay ({@code failed}).
 *
 * <p>DelayOwedAfterAWithdrawal: plan 3 x 1 on one worker: segment 0's output is missing while segment 1's job runs; segment 1's job then fails
 * and, the re-run waiting for its worker, is withdrawn; its unit's next job owes the failure delay.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AFailureDelayOwedAfterAWithdrawalIsAFailedWaitTest {

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void theWaitOfTheWithdrawnUnitsNextJobIsCausedByTheFailure(boolean ordered) throws Throwable {
        String id = "owed-" + ordered;
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofMillis(2))
                .failureDelay(Duration.ofMillis(200)).ordered(ordered).build();
        assertEquals(List.of("attempt 2 failed"), DelayOwedAfterAWithdrawal.waitsOfSegment1(id, config,
                () -> Tier2Exception.retryable("stream reset", null)));
    }
}
