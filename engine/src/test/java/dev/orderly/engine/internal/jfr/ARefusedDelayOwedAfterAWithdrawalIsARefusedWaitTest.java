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
 * A {@code dev.orderly.LaunchWait}'s cause is "what sent the job to wait: queued, refused or failed". A job refused
 * (here by a tier2 that took it and then says nothing ran) that gives its worker up to the client's re-run before its
 * redial leaves the refused delay to its unit's next job (365829e), which waits it out before its first dial. That
 * wait was recorded with the cause {@code queued} (ordered), or not at all (unordered), although the refusal sent the
 * unit to wait, as it does for a job that waits out its own refused delay ({@code refused}); an owed failure delay is
 * recorded as {@code failed} ({@code AFailureDelayOwedAfterAWithdrawalIsAFailedWaitTest}).
 *
 * <p>DelayOwedAfterAWithdrawal: plan 3 x 1 on one worker: segment 0's output is missing while segment 1's job runs; segment 1's call then says
 * nothing ran and, the re-run waiting for its worker, the job is withdrawn; its unit's next job owes the refused delay.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ARefusedDelayOwedAfterAWithdrawalIsARefusedWaitTest {

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void theWaitOfTheWithdrawnUnitsNextJobIsCausedByTheRefusal(boolean ordered) throws Throwable {
        String id = "refused-owed-" + ordered;
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofMillis(200))
                .failureDelay(Duration.ofMillis(2)).ordered(ordered).build();
        assertEquals(List.of("attempt 2 refused"), DelayOwedAfterAWithdrawal.waitsOfSegment1(id, config,
                () -> Tier2Exception.refused("evicted before it started")));
    }
}
