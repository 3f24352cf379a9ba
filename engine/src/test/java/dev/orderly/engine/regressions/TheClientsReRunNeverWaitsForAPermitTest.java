package dev.orderly.engine.regressions;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Fixtures;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rule of {@link TheClientsReRunNeverWaitsForAWorkerTest} under the engine-wide job cap: there the request's
 * workers are all taken, here the engine's cap is. Plan 4 × 1 with 8 workers on an engine capped at 3 jobs: segment
 * 0's output goes missing while segments 1 and 2 run and segment 3 is refused over and over, holding the third
 * permit. The re-run of segment 0 must not wait for 1 or 2 to end: segment 3 gives its worker (and its permit, which
 * stays with the request) up.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheClientsReRunNeverWaitsForAPermitTest {

    private static EngineConfig config(boolean ordered) {
        return (ordered ? Fixtures.fast() : Fixtures.fastUnordered()).toBuilder().maxConcurrentJobs(3).build();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void theHighestQueuedJobGivesItsPermitUpToTheReRun(boolean ordered) throws Throwable {
        TheClientsReRunNeverWaitsForAWorkerTest.reRunOvertakesTheRefusedSegment3(config(ordered),
                new RequestPlan(0, 4, 1, 8));
    }
}
